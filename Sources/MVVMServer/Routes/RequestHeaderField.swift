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

    /// Every field the API reads.
    static let all = [ifNoneMatch, lastEventID, accept]

    /// The requests a kept state document must not answer: a conditional read (it may answer
    /// 304), a resumed stream, and a client that may ask for an event stream.
    static let reuseExclusions = ReuseExclusions(fields: [ifNoneMatch, lastEventID], acceptedMediaTypes: ["text/event-stream"])
}
