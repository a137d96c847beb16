import MVVMSupport

/// Percent-decoding of URL paths and query strings (RFC 3986), strict about what it accepts.
package enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusIsSpace`); `nil` when an escape is
    /// malformed, the result is not valid UTF-8, or it holds a NUL character.
    package static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String? {
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) || $0 == 0 }) {
            return String(text)
        }
        var copy = String(text)
        return copy.withUTF8 { decode($0, plusIsSpace: plusIsSpace) }
    }

    /// Decodes the `%XX` escapes of raw bytes (and `+` as a space when `plusIsSpace`); `nil` when
    /// an escape is malformed, the result is not valid UTF-8, or it holds a NUL character.
    package static func decode(_ raw: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < raw.count, let high = hexValue(raw[index + 1]), let low = hexValue(raw[index + 2]) else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        guard !bytes.contains(0) else { return nil }
        return String(utf8Bytes: bytes)
    }

    /// Splits a raw query string (`a=1&b=x%20y`) into decoded pairs; `nil` when any part is malformed.
    /// The split is on the bytes `&` and `=`, not on Characters: a delimiter followed by a
    /// combining mark (`=\u{301}`) is one Character that a Character split would not cut at.
    package static func decodeQuery(_ query: Substring) -> [String: String]? {
        var result: [String: String] = [:]
        for pair in query.utf8.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            guard let name = decode(Substring(pair[..<(equals ?? pair.endIndex)]), plusIsSpace: true) else { return nil }
            let value = equals.map { decode(Substring(pair[pair.index(after: $0)...]), plusIsSpace: true) } ?? ""
            guard let value else { return nil }
            result[name] = value
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
