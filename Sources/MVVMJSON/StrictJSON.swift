import Foundation
import MVVMSupport

/// A strict RFC 8259 parser into ``JSONValue``, used for request bodies and for the framework's
/// own documents (merging inputs, comparing outputs).
///
/// Foundation's decoder on Linux accepts some malformed documents (a trailing comma in an
/// object, e.g. `{"a": 1,}`), and decoding an untyped value through `Decodable` costs a thrown
/// error per guess; this parser rejects every malformed document and reads each byte once.
/// Containers nest at most ``maximumDepth`` deep, so a hostile body cannot exhaust the stack.
package enum StrictJSON {
    /// Containers nest at most this deep (below Foundation's encoder limit of 512, so that any
    /// value parsed here can be encoded again).
    package static let maximumDepth = 500

    /// Whether `data` is exactly one well-formed JSON value, surrounded only by whitespace:
    /// exactly when ``parse(_:)`` would return a value, without building its containers.
    package static func isWellFormed(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            guard parser.skipValue(depth: 0) else { return false }
            parser.skipWhitespace()
            return parser.index == parser.bytes.count
        }
    }

    /// Whether `data` holds nothing but JSON whitespace (or nothing at all).
    package static func isBlank(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            parser.skipWhitespace()
            return parser.index == parser.bytes.count
        }
    }

    /// The value `data` holds, or `nil` when it is not exactly one well-formed JSON value.
    package static func parse(_ data: Data) -> JSONValue? {
        data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            guard let value = parser.value(depth: 0) else { return nil }
            parser.skipWhitespace()
            return parser.index == parser.bytes.count ? value : nil
        }
    }

    /// Reads one JSON document from its bytes; what it reads moves `index` past it.
    struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                index += 1
            }
        }

        mutating func value(depth: Int) -> JSONValue? {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return depth < StrictJSON.maximumDepth ? object(depth: depth + 1) : nil
            case UInt8(ascii: "["): return depth < StrictJSON.maximumDepth ? array(depth: depth + 1) : nil
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        private mutating func object(depth: Int) -> JSONValue? {
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object([:])
            }
            // One allocation for up to six members (growing from empty takes one per doubling).
            var members = [String: JSONValue](minimumCapacity: 6)
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let member = value(depth: depth) else { return nil }
                members[key] = member
                skipWhitespace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                } else {
                    return nil
                }
            }
        }

        private mutating func array(depth: Int) -> JSONValue? {
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth) else { return nil }
                elements.append(element)
                skipWhitespace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                } else {
                    return nil
                }
            }
        }

        mutating func literal(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return nil }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return nil }
            index += count
            return value
        }

        /// -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?; `nil` also for a number too large
        /// for a Double (`1e400`), which would otherwise become an infinity that no JSON can hold.
        mutating func number() -> JSONValue? {
            let start = index
            func digits(_ parser: inout Parser) -> Int {
                let first = parser.index
                while parser.index < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.index]) { parser.index += 1 }
                return parser.index - first
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits(&self) > 0 else { return nil }
            }
            var isWhole = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                isWhole = false
                guard digits(&self) > 0 else { return nil }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                isWhole = false
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits(&self) > 0 else { return nil }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            // A whole number keeps every digit within Int64's range; `-0` stays a Double's -0.
            if isWhole, let integer = Int64(text), integer != 0 || bytes[start] != UInt8(ascii: "-") {
                return .integer(integer)
            }
            guard let number = Double(text), number.isFinite else { return nil }
            return .number(number)
        }

        /// A string starting at a quote; `nil` when an escape is malformed, a control character is
        /// not escaped, or the bytes are not valid UTF-8.
        mutating func string() -> String? {
            index += 1
            let start = index
            var hasEscapes = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\\") {
                    hasEscapes = true
                    index += 1
                }
                index += 1
            }
            guard index < bytes.count else { return nil }
            let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
            index += 1
            guard hasEscapes else { return String(utf8Bytes: raw) }
            return Self.unescape(raw)
        }

        private static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
            var output: [UInt8] = []
            output.reserveCapacity(raw.count)
            var index = 0
            func hex4(_ at: Int) -> UInt32? {
                guard at + 4 <= raw.count else { return nil }
                var value: UInt32 = 0
                for offset in 0..<4 {
                    let byte = raw[at + offset]
                    let digit: UInt32
                    switch byte {
                    case 0x30...0x39: digit = UInt32(byte - 0x30)
                    case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
                    case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
                    default: return nil
                    }
                    value = value << 4 | digit
                }
                return value
            }
            while index < raw.count {
                let byte = raw[index]
                guard byte == UInt8(ascii: "\\") else {
                    output.append(byte)
                    index += 1
                    continue
                }
                guard index + 1 < raw.count else { return nil }
                let escaped = raw[index + 1]
                index += 2
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escaped)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4(index) else { return nil }
                    index += 4
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u"),
                            let low = hex4(index + 2), (0xDC00...0xDFFF).contains(low)
                        else { return nil }
                        index += 6
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    output.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    return nil
                }
            }
            return String(utf8Bytes: output)
        }
    }
}
