import Foundation

/// A strict RFC 8259 syntax check, run before decoding a request body.
///
/// Foundation's decoder on Linux accepts some malformed documents (a trailing comma in an
/// object, e.g. `{"a": 1,}`); a client's mistake must be answered 400, not half-accepted.
/// The check is iterative (no recursion), so a deeply nested body cannot exhaust the stack.
enum StrictJSON {
    /// Containers nest at most this deep.
    static let maximumDepth = 512

    private enum Expect {
        case value, valueOrArrayEnd, keyOrObjectEnd, key, colon, separatorOrEnd, end
    }

    /// Whether `data` is exactly one well-formed JSON value, surrounded only by whitespace.
    static func isWellFormed(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            var stack: [UInt8] = []
            var expect = Expect.value
            while true {
                while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
                if expect == .end { return index == bytes.count }
                guard index < bytes.count else { return false }
                let byte = bytes[index]
                switch expect {
                case .value, .valueOrArrayEnd:
                    if expect == .valueOrArrayEnd && byte == UInt8(ascii: "]") {
                        stack.removeLast()
                        index += 1
                        expect = stack.isEmpty ? .end : .separatorOrEnd
                        continue
                    }
                    switch byte {
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        guard stack.count < maximumDepth else { return false }
                        stack.append(byte)
                        index += 1
                        expect = byte == UInt8(ascii: "{") ? .keyOrObjectEnd : .valueOrArrayEnd
                        continue
                    case UInt8(ascii: "\""):
                        guard let end = stringEnd(bytes, from: index) else { return false }
                        index = end
                    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                        guard let end = literalEnd(bytes, from: index) else { return false }
                        index = end
                    default:
                        guard let end = numberEnd(bytes, from: index) else { return false }
                        index = end
                    }
                    expect = stack.isEmpty ? .end : .separatorOrEnd
                case .keyOrObjectEnd, .key:
                    if expect == .keyOrObjectEnd && byte == UInt8(ascii: "}") {
                        stack.removeLast()
                        index += 1
                        expect = stack.isEmpty ? .end : .separatorOrEnd
                        continue
                    }
                    guard byte == UInt8(ascii: "\""), let end = stringEnd(bytes, from: index) else { return false }
                    index = end
                    expect = .colon
                case .colon:
                    guard byte == UInt8(ascii: ":") else { return false }
                    index += 1
                    expect = .value
                case .separatorOrEnd:
                    let container = stack[stack.count - 1]
                    if byte == UInt8(ascii: ",") {
                        index += 1
                        expect = container == UInt8(ascii: "{") ? .key : .value
                    } else if (byte == UInt8(ascii: "}") && container == UInt8(ascii: "{")) || (byte == UInt8(ascii: "]") && container == UInt8(ascii: "[")) {
                        stack.removeLast()
                        index += 1
                        expect = stack.isEmpty ? .end : .separatorOrEnd
                    } else {
                        return false
                    }
                case .end:
                    return index == bytes.count
                }
            }
        }
    }

    /// The index after a string starting at `start` (a quote), or `nil` when it is malformed.
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                return index + 1
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return nil }
                let escaped = bytes[index + 1]
                if escaped == UInt8(ascii: "u") {
                    guard index + 5 < bytes.count, (index + 2...index + 5).allSatisfy({ isHexDigit(bytes[$0]) }) else { return nil }
                    index += 6
                } else {
                    guard Array("\"\\/bfnrt".utf8).contains(escaped) else { return nil }
                    index += 2
                }
            case 0x00..<0x20:
                return nil
            default:
                index += 1
            }
        }
        return nil
    }

    private static func literalEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        for literal in ["true", "false", "null"] {
            let utf8 = Array(literal.utf8)
            if start + utf8.count <= bytes.count && (0..<utf8.count).allSatisfy({ bytes[start + $0] == utf8[$0] }) {
                return start + utf8.count
            }
        }
        return nil
    }

    /// The index after a number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    private static func numberEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        func digits() -> Int {
            let first = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return nil }
        }
        return index
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
