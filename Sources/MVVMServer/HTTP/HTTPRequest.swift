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
        var path = path
        return path.withUTF8 { bytes -> [String]? in
            guard bytes.first == UInt8(ascii: "/") else { return nil }
            var segments: [String] = []
            segments.reserveCapacity(8)
            var start = 1
            var hasEscape = false
            for index in 1...bytes.count {
                if index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                    let segment = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    if hasEscape {
                        guard let decoded = PercentDecoding.decode(segment) else { return nil }
                        segments.append(decoded)
                    } else {
                        segments.append(String(decoding: segment, as: UTF8.self))
                    }
                    start = index + 1
                    hasEscape = false
                } else if bytes[index] == UInt8(ascii: "%") || bytes[index] == 0 {
                    hasEscape = true
                }
            }
            return segments
        }
    }
}
