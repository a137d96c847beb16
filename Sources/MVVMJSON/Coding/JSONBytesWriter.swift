import Foundation

/// Writes an ``EncodedJSON`` tree as compact JSON bytes, spelled as Foundation's `JSONEncoder`
/// spells them with `[.sortedKeys, .withoutEscapingSlashes]`:
///
/// - object members sorted by the UTF-8 bytes of their keys (Foundation's rule on Linux:
///   `"B" < "_" < "a"`, `"a10" < "a9"`, non-ASCII after ASCII), a key set twice written once
///   with its last value (keys equal as Swift strings count as the same key, spelled as first
///   set, since Foundation keeps members in a `[String: …]` dictionary);
/// - floating-point numbers as their Swift `description` without a trailing `.0` (`1`, `0.1`,
///   `1e+21`, `-0`), integers in decimal;
/// - in strings, `"` and `\` escaped, `\b \f \n \r \t` for those control characters and
///   `\u00xx` (lower-case hex) for the other ones below U+0020; everything else, including `/`,
///   DEL, U+2028 and U+2029, written as is in UTF-8.
package struct JSONBytesWriter {
    /// Containers nest at most this deep, as in Foundation's writer.
    package static let maximumDepth = 512

    /// Thrown when containers nest deeper than ``maximumDepth``.
    package struct TooDeeplyNested: Error {}

    package private(set) var bytes: [UInt8] = []
    /// When not nil, writing a top-level object records here where each member's value lies.
    package var topLevelMembers: [EncodedMembers.Member]?

    package init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Forgets what was written (and the top-level members recorded), to write a value again.
    mutating func restart() {
        bytes.removeAll(keepingCapacity: true)
        if topLevelMembers != nil { topLevelMembers = [] }
    }

    /// Appends one byte of JSON's punctuation.
    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Writes an object member's key and its colon; returns whether the key is all ASCII.
    mutating func writeKey(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            let isASCII = writeEscaped(utf8)
            bytes.append(UInt8(ascii: "\""))
            bytes.append(UInt8(ascii: ":"))
            return isASCII
        }
    }

    /// How many bytes are written.
    package var count: Int { bytes.count }

    /// Moves the bytes from `start` on into `scratch` (replacing what it held), leaving the
    /// bytes before `start`.
    mutating func moveTail(from start: Int, into scratch: inout [UInt8]) {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[start...])
        bytes.removeSubrange(start...)
    }

    /// Appends the bytes of `scratch` in `range`.
    mutating func append(scratch: [UInt8], _ range: Range<Int>) {
        bytes.append(contentsOf: scratch[range])
    }

    /// Appends bytes that are already JSON (a document spliced into another).
    package mutating func append(bytes more: some Sequence<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// Appends bytes that are already JSON (the common containers, so that callers in other
    /// modules do not run the generic version unspecialized).
    package mutating func append(bytes more: [UInt8]) {
        bytes.append(contentsOf: more)
    }

    /// Appends bytes that are already JSON, held in `Data`.
    package mutating func append(bytes more: Data) {
        more.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    /// Appends a string's UTF-8 bytes as they are (the caller knows they need no escaping).
    package mutating func append(bytes more: String.UTF8View) {
        bytes.append(contentsOf: more)
    }

    mutating func write(_ value: EncodedJSON, depth: Int) throws {
        switch value {
        case .null: append("null")
        case .bool(let value): append(value ? "true" : "false")
        case .int(let value): writeInteger(value.magnitude, negative: value < 0)
        case .uint(let value): writeInteger(value, negative: false)
        case .double(let value): writeDouble(value)
        case .float(let value): writeFloatDescription(value.description)
        case .string(let value): writeString(value)
        case .number(let value): bytes.append(contentsOf: value.utf8)
        case .object(let object): try writeObject(object, depth: depth + 1)
        case .array(let array): try writeArray(array, depth: depth + 1)
        case .deferred(let encoder): try write(encoder.storage ?? .object(EncodedObject()), depth: depth)
        }
    }

    /// Writes an object's members in key order; sorts them in place (a tree is written once).
    private mutating func writeObject(_ object: EncodedObject, depth: Int) throws {
        guard depth < Self.maximumDepth else { throw TooDeeplyNested() }
        if object.members.count > 1 {
            if !MemberOrder.allKeysAreASCII(object.members) {
                object.members = MemberOrder.mergingEqualKeys(object.members)
            }
            object.members.withUnsafeMutableBufferPointer { MemberOrder.sortByKey($0) }
        }
        let members = object.members
        if depth == 1, topLevelMembers != nil {
            // One allocation for the list kept with the bytes, not one per doubling.
            topLevelMembers?.reserveCapacity(members.count)
        }
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for index in members.indices {
            let member = members[index]
            // Of the members set with the same key, only the last one (the last after sorting) counts.
            if index + 1 < members.count, members[index + 1].key == member.key { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            writeString(member.key)
            bytes.append(UInt8(ascii: ":"))
            let start = bytes.count
            try write(member.value, depth: depth)
            if depth == 1, topLevelMembers != nil {
                topLevelMembers?.append(EncodedMembers.Member(key: member.key, range: start..<bytes.count))
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func writeArray(_ array: EncodedArray, depth: Int) throws {
        guard depth < Self.maximumDepth else { throw TooDeeplyNested() }
        bytes.append(UInt8(ascii: "["))
        let elements = array.elements
        try writeSeparated(count: elements.count) { try $0.write(elements[$1], depth: depth) }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Whether `left`'s UTF-8 bytes sort before `right`'s: Foundation's `.sortedKeys` order.
    package static func utf8Precedes(_ left: String, _ right: String) -> Bool {
        let fast = left.utf8.withContiguousStorageIfAvailable { leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes in
                let shared = min(leftBytes.count, rightBytes.count)
                for index in 0..<shared where leftBytes[index] != rightBytes[index] {
                    return leftBytes[index] < rightBytes[index]
                }
                return leftBytes.count < rightBytes.count
            }
        }
        if let result = fast ?? nil { return result }
        return left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    /// Writes `count` elements separated by commas, the element at each index from 0 with
    /// `writeElement`: the inside of an array, or of an object when each element is a member.
    /// Not generic, so that a call from another module looks no type up at run time.
    package mutating func writeSeparated(count: Int, _ writeElement: (inout JSONBytesWriter, Int) throws -> Void) rethrows {
        for index in 0..<count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try writeElement(&self, index)
        }
    }

    package mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func writeInteger(_ magnitude: UInt64, negative: Bool) {
        if negative { bytes.append(UInt8(ascii: "-")) }
        var low = bytes.count
        var rest = magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while rest > 0
        // The digits were written last first. Swapped in place: reversing `bytes[low...]` would
        // copy the buffer, which the slice shares while it is mutated.
        var high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    package mutating func writeDouble(_ value: Double) {
        // A whole number well inside the range where `description` spells every digit
        // (`123.0`) is written as an integer without building the description.
        if value == value.rounded(.towardZero), value.magnitude < 1e15, !(value == 0 && value.sign == .minus) {
            let whole = Int64(value)
            writeInteger(whole.magnitude, negative: whole < 0)
        } else {
            writeFloatDescription(value.description)
        }
    }

    /// Writes a float's description without a trailing `.0`, as Foundation does.
    private mutating func writeFloatDescription(_ description: String) {
        var utf8 = Substring(description).utf8
        if utf8.count >= 2, utf8.last == UInt8(ascii: "0"), utf8.dropLast().last == UInt8(ascii: ".") {
            utf8 = utf8.dropLast(2)
        }
        bytes.append(contentsOf: utf8)
    }

    package mutating func writeString(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            writeEscaped(utf8)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Writes UTF-8 bytes escaped as a string's inside; returns whether they are all ASCII.
    @discardableResult
    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var runStart = utf8.startIndex
        var index = utf8.startIndex
        var highBits: UInt8 = 0
        while index < utf8.endIndex {
            let byte = utf8[index]
            highBits |= byte
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            default:
                append("\\u00")
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0x0F))
            }
            index += 1
            runStart = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        return highBits < 0x80
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "a") &+ (value &- 10)
    }
}
