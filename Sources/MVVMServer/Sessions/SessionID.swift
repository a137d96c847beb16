import Foundation

/// Session identifiers: 128 bits from the system's cryptographic random source
/// (`SystemRandomNumberGenerator`, getrandom on Linux), written as 22 characters of URL-safe
/// base64 without padding.
enum SessionID {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// A new identifier: 16 random bytes in base64url (RFC 4648 §5), without padding.
    static func make() -> String {
        // Two draws of 64 bits (one getrandom call each), not sixteen draws of one byte.
        var generator = SystemRandomNumberGenerator()
        let bytes = [generator.next(), generator.next()].flatMap { word in
            (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) }
        }
        var characters: [UInt8] = []
        characters.reserveCapacity(22)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { characters.append(alphabet[Int(group >> UInt32(shift) & 63)]) }
            index += 3
        }
        let last = UInt32(bytes[index]) << 16
        characters.append(alphabet[Int(last >> 18 & 63)])
        characters.append(alphabet[Int(last >> 12 & 63)])
        return String(decoding: characters, as: UTF8.self)
    }

    /// Whether a string has the shape of an identifier (others are not even looked up).
    static func isWellFormed(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            bytes.count == 22
                && bytes.allSatisfy { byte in
                    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                }
        }
    }

    /// The identifier shortened for logs: never logged in full.
    static func redacted(_ text: String) -> String {
        String(text.prefix(4)) + "…"
    }
}
