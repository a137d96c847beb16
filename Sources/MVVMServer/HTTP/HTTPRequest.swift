import Foundation

/// One HTTP request as the runtime hands it to a handler: plain Swift values, no C types.
///
/// The path is kept as sent (still percent-encoded); ``pathSegments`` decodes it one
/// segment at a time, so that an encoded slash stays inside its segment.
public struct HTTPRequest: Sendable {
    /// The request method, exactly as the client sent it (`GET`, `POST`, …).
    public var method: String
    /// The path as sent, without the query string, still percent-encoded.
    public var path: String
    /// Query parameters, percent-decoded. A name given twice keeps its last value.
    public var query: [String: String]
    /// Header fields, with lower-cased names.
    public var headers: [String: String]
    /// The request body, empty when none was sent.
    public var body: Data

    /// Makes a request; tests and the runtime use it.
    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        var lowered: [String: String] = [:]
        for (name, value) in headers { lowered[name.lowercased()] = value }
        self.headers = lowered
        self.body = body
    }

    /// The value of a header field, looked up case-insensitively.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The path split at `/` and percent-decoded segment by segment, or `nil` when a
    /// segment is not valid UTF-8 once decoded or holds a NUL character.
    public var pathSegments: [String]? {
        guard path.hasPrefix("/") else { return nil }
        var segments: [String] = []
        for raw in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = PercentDecoding.decode(raw) else { return nil }
            segments.append(decoded)
        }
        return segments
    }
}
