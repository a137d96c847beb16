import MVVMHTTP

/// The request header fields the API reads. The HTTP runtime hands the handlers these and no
/// others (``HTTPServerConfiguration/headerFieldsRead``): a field read anywhere else must be
/// added here.
enum RequestHeaderField {
    /// A conditional read of a scene's state (304 when its version has not changed).
    static let ifNoneMatch = "If-None-Match"
    /// Where a reconnecting event stream resumes.
    static let lastEventID = "Last-Event-ID"
    /// Whether a client asks for an event stream.
    static let accept = "Accept"
    /// Marks a GET as an observer's (the inspector's): it does not count as a use of its session.
    static let observer = "MVVM-Observer"

    /// Every field the API reads.
    static let all = [ifNoneMatch, lastEventID, accept, observer]

    /// The requests a kept state document must not answer: a conditional read (it may answer
    /// 304), a resumed stream, a client that may ask for an event stream, and an observer's read
    /// (a reuse counts as a use of the session).
    static let reuseExclusions = ReuseExclusions(fields: [ifNoneMatch, lastEventID, observer], acceptedMediaTypes: ["text/event-stream"])
}
