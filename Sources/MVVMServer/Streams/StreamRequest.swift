import Foundation
import MVVMHTTP

/// What a GET asks of a stream: whether it asks for one, and the version it resumes after.
struct StreamRequest {
    /// The version the stream starts after: `Last-Event-ID`, else `since`; `nil` for neither.
    let after: UInt64?

    /// The stream a request asks for, or `nil` when it asks for a plain document (no `Accept`
    /// field preferring `text/event-stream`).
    /// A `Last-Event-ID` that is not a version is a 400 on a plain GET too.
    init?(_ request: HTTPRequest, poll: PollParameters) throws(HTTPError) {
        var lastEventID: UInt64?
        if let text = request.header(RequestHeaderField.lastEventID) {
            guard let version = PollParameters.version(text) else {
                throw HTTPError(
                    .invalidParameter, detail: "'Last-Event-ID' must be a version: a whole number from 0 to \(PollParameters.maxVersion).",
                    member: "Last-Event-ID")
            }
            lastEventID = version
        }
        guard let accept = request.header(RequestHeaderField.accept), Self.prefersEventStream(accept) else { return nil }
        after = lastEventID ?? poll.since
    }

    /// Whether an `Accept` field asks for `text/event-stream` more than for JSON: it names it
    /// with a weight above 0 and above JSON's (a field that names both alike, as a generated
    /// client's does, gets JSON).
    static func prefersEventStream(_ accept: String) -> Bool {
        var stream = 0.0
        var json = 0.0
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first else { continue }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            switch type {
            case "text/event-stream": stream = max(stream, weight)
            case "application/json": json = max(json, weight)
            default: continue
            }
        }
        return stream > 0 && stream > json
    }
}
