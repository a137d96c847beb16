/// Reading a value without keeping it: ``StrictJSON/isWellFormed(_:)`` checks a document by the
/// same grammar as ``StrictJSON/parse(_:)`` without building its containers.
extension StrictJSON.Parser {
    /// Reads one value as ``value(depth:)`` does, keeping none of it: `false` where that
    /// returns `nil`.
    mutating func skipValue(depth: Int) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < StrictJSON.maximumDepth else { return false }
            return skipContainer(depth: depth + 1)
        case UInt8(ascii: "\""): return skipString()
        case UInt8(ascii: "t"): return literal("true", .null) != nil
        case UInt8(ascii: "f"): return literal("false", .null) != nil
        case UInt8(ascii: "n"): return literal("null", .null) != nil
        default: return number() != nil
        }
    }

    /// Reads an object or an array, as ``object(depth:)`` and ``array(depth:)`` do,
    /// keeping none of it.
    private mutating func skipContainer(depth: Int) -> Bool {
        let isObject = bytes[index] == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == close {
            index += 1
            return true
        }
        while true {
            if isObject {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), skipString() else { return false }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
                index += 1
            }
            guard skipValue(depth: depth) else { return false }
            skipWhitespace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == close {
                index += 1
                return true
            } else {
                return false
            }
        }
    }

    /// Reads a string starting at a quote as ``string()`` does (`false` where that returns
    /// `nil`), building it only to check escapes or bytes beyond ASCII.
    mutating func skipString() -> Bool {
        let quote = index
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return true
            }
            if byte < 0x20 { return false }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 {
                index = quote
                return string() != nil
            }
            index += 1
        }
        return false
    }
}
