import Foundation

/// One HTTP request as the runtime hands it to a handler: plain Swift values, no C types.
///
/// The path is kept as sent (still percent-encoded); ``pathSegments`` decodes it one
/// segment at a time, so that an encoded slash stays inside its segment.
package struct HTTPRequest: Sendable {
    /// The request method, exactly as the client sent it (`GET`, `POST`, …).
    package var method: String
    /// The path as sent, without the query string, still percent-encoded.
    package var path: String
    /// Query parameters, percent-decoded. A name given twice keeps its last value.
    package var query: [String: String]
    /// Header fields as they arrived (names as sent), in order: a request carries a handful,
    /// so they are kept in a list and looked up by name without hashing.
    package var fields: [(name: String, value: String)]
    /// The request body, empty when none was sent.
    package var body: Data

    /// Makes a request; tests and the runtime use it.
    package init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        fields = headers.map { ($0.key, $0.value) }
        self.body = body
    }

    /// Makes a request from the header fields as they arrived; the runtime uses it.
    init(method: String, path: String, query: [String: String], fields: [(name: String, value: String)], body: Data) {
        self.method = method
        self.path = path
        self.query = query
        self.fields = fields
        self.body = body
    }

    /// Header fields, with lower-cased names (a field sent twice keeps its last value).
    package var headers: [String: String] {
        get { Dictionary(fields.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last }) }
        set { fields = newValue.map { ($0.key, $0.value) } }
    }

    /// The value of a header field, looked up case-insensitively (the last one sent wins).
    package func header(_ name: String) -> String? {
        fields.last { Self.equalIgnoringASCIICase($0.name, name) }?.value
    }

    /// Whether two field names are equal when ASCII letters are compared without case.
    private static func equalIgnoringASCIICase(_ left: String, _ right: String) -> Bool {
        left.utf8.count == right.utf8.count
            && left.utf8.elementsEqual(right.utf8) { a, b in
                a == b || (a | 0x20 == b | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(a | 0x20))
            }
    }

    /// The path split at `/` and percent-decoded segment by segment, or `nil` when a
    /// segment is not valid UTF-8 once decoded or holds a NUL character.
    package var pathSegments: [String]? {
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
