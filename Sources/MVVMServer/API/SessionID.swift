import Foundation

/// Session identifiers: 128 bits from the system's cryptographic random source
/// (`SystemRandomNumberGenerator`, getrandom on Linux), written as 22 characters of URL-safe
/// base64 without padding.
enum SessionID {
    /// A new identifier.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether a string has the shape of an identifier (others are not even looked up).
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 22 && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// The identifier shortened for logs: never logged in full.
    static func redacted(_ text: String) -> String {
        String(text.prefix(4)) + "…"
    }
}
