/// Independent, deliberately simple implementations of what the parsers must do, for
/// differential checks: written from RFC 3986 and the parsers' documentation, not from their code.
enum Reference {
    /// RFC 3986 unreserved characters, never percent-encoded by ``percentEncode(_:)``.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Every byte of the UTF-8 form that is not unreserved, as `%XX` (upper-case hex).
    static func percentEncode(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output.append(contentsOf: [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `%XX` escapes decoded (`+` as a space when asked); `nil` for a malformed escape, a
    /// result that is not UTF-8, or one holding NUL.
    static func percentDecode(_ raw: ArraySlice<UInt8>, plusIsSpace: Bool) -> String? {
        let raw = Array(raw)
        var output: [UInt8] = []
        var index = 0
        while index < raw.count {
            switch raw[index] {
            case UInt8(ascii: "%"):
                guard index + 2 < raw.count, let high = hex(raw[index + 1]), let low = hex(raw[index + 2]) else { return nil }
                output.append(high * 16 + low)
                index += 3
            case UInt8(ascii: "+") where plusIsSpace:
                output.append(UInt8(ascii: " "))
                index += 1
            default:
                output.append(raw[index])
                index += 1
            }
        }
        if output.contains(0) { return nil }
        return String(validating: output, as: UTF8.self)
    }

    /// A path (`/a/b%2Fc`) split at each `/` after the first and decoded segment by segment.
    static func pathSegments(_ path: String) -> [String]? {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        var segments: [String] = []
        for raw in bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let segment = percentDecode(raw, plusIsSpace: false) else { return nil }
            segments.append(segment)
        }
        return segments
    }

    /// A query split at `&` (empty parts skipped), each part at its first `=`, decoded with `+`
    /// as a space; a name given twice keeps its last value.
    static func query(_ raw: String) -> [String: String]? {
        var result: [String: String] = [:]
        for part in Array(raw.utf8).split(separator: UInt8(ascii: "&")) {
            let name: ArraySlice<UInt8>
            let value: ArraySlice<UInt8>
            if let equals = part.firstIndex(of: UInt8(ascii: "=")) {
                name = part[part.startIndex..<equals]
                value = part[(equals + 1)...]
            } else {
                name = part
                value = []
            }
            guard let decodedName = percentDecode(name, plusIsSpace: true),
                let decodedValue = percentDecode(value, plusIsSpace: true)
            else { return nil }
            result[decodedName] = decodedValue
        }
        return result
    }

    /// A query string that decodes to exactly `pairs`.
    static func encodeQuery(_ pairs: [String: String]) -> String {
        pairs.keys.sorted().map { percentEncode($0) + "=" + percentEncode(pairs[$0]!) }.joined(separator: "&")
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
