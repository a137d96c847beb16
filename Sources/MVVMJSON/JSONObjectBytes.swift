import Foundation
import MVVMSupport

/// One JSON object's top-level members, found in its bytes without building them: where each
/// key and each value lies. A value is parsed when it is read.
///
/// Only a plain object is taken: a whole well-formed document (``StrictJSON``'s grammar and
/// depth limit) that is an object of at most ``maximumMembers`` members whose keys are ASCII
/// without escapes, so that two keys are the same key exactly when their bytes are (as
/// `String`'s equality would have it). A key sent twice counts once, with its last value, as
/// ``StrictJSON/parse(_:)`` keeps it.
package struct JSONObjectBytes: Sendable {
    /// Objects with more members are not taken: a member is found by comparing keys in turn.
    package static let maximumMembers = 32

    /// Where one member's key (inside its quotes) and its value lie in the bytes.
    struct Member {
        let key: Range<Int>
        let value: Range<Int>
    }

    /// The bytes (an array: reading `Data`'s bytes checks exclusive access each time).
    let bytes: [UInt8]
    /// The members in the order they are written.
    let members: [Member]

    /// The members of `bytes`, or `nil` when they are not a plain object (see the type).
    package init?(_ bytes: [UInt8]) {
        guard let members = Self.index(bytes) else { return nil }
        self.bytes = bytes
        self.members = members
    }

    /// The members of `data`, or `nil` when they are not a plain object (see the type).
    package init?(_ data: Data) {
        self.init(data.withUnsafeBytes { Array($0) })
    }

    private static func index(_ bytes: [UInt8]) -> [Member]? {
        bytes.withUnsafeBufferPointer { buffer -> [Member]? in
            var parser = StrictJSON.Parser(bytes: buffer)
            parser.skipWhitespace()
            guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "{") else { return nil }
            parser.index += 1
            var members: [Member] = []
            members.reserveCapacity(4)
            parser.skipWhitespace()
            if parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "}") {
                parser.index += 1
            } else {
                while true {
                    parser.skipWhitespace()
                    guard members.count < maximumMembers, let key = plainKey(&parser) else { return nil }
                    parser.skipWhitespace()
                    guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: ":") else { return nil }
                    parser.index += 1
                    parser.skipWhitespace()
                    let valueStart = parser.index
                    guard parser.skipValue(depth: 1) else { return nil }
                    members.append(Member(key: key, value: valueStart..<parser.index))
                    parser.skipWhitespace()
                    guard parser.index < buffer.count else { return nil }
                    if buffer[parser.index] == UInt8(ascii: ",") {
                        parser.index += 1
                    } else if buffer[parser.index] == UInt8(ascii: "}") {
                        parser.index += 1
                        break
                    } else {
                        return nil
                    }
                }
            }
            parser.skipWhitespace()
            return parser.index == buffer.count ? members : nil
        }
    }

    /// The range of a key made of printable ASCII without escapes, inside its quotes.
    private static func plainKey(_ parser: inout StrictJSON.Parser) -> Range<Int>? {
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else { return nil }
        let start = parser.index + 1
        var index = start
        while index < parser.bytes.count {
            let byte = parser.bytes[index]
            if byte == UInt8(ascii: "\"") {
                parser.index = index + 1
                return start..<index
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// The number of distinct keys.
    package var keyCount: Int {
        withBytes { all in members.indices.count { !hasKey(at: $0, after: $0, in: all) } }
    }

    /// The distinct keys.
    package var keys: [String] {
        withBytes { all in
            members.indices.filter { !hasKey(at: $0, after: $0, in: all) }.map {
                String(decoding: UnsafeBufferPointer(rebasing: all[members[$0].key]), as: UTF8.self)
            }
        }
    }

    /// Whether every key is one of `names`, compared byte for byte (the caller knows the names
    /// are ASCII: an ASCII key equals no other string).
    package func keys(areAmong names: [String]) -> Bool {
        withBytes { all in
            members.allSatisfy { member in
                names.contains { name in name.utf8.withContiguousStorageIfAvailable { Self.key(member.key, in: all, is: $0) } ?? false }
            }
        }
    }

    /// Calls `body` with the bytes.
    private func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer(body)
    }

    /// Whether the key at `key` in `all` has the bytes `name`.
    private static func key(_ key: Range<Int>, in all: UnsafeBufferPointer<UInt8>, is name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard key.count == name.count else { return false }
        guard let start = name.baseAddress, !key.isEmpty else { return true }
        return memcmp(all.baseAddress! + key.lowerBound, start, key.count) == 0
    }

    /// Whether a member after `after` has the key of the member at `index`.
    private func hasKey(at index: Int, after: Int, in all: UnsafeBufferPointer<UInt8>) -> Bool {
        let key = UnsafeBufferPointer(rebasing: all[members[index].key])
        return members[(after + 1)...].contains { Self.key($0.key, in: all, is: key) }
    }

    /// The value of the member `name` (its last one), parsed; `nil` when there is none.
    package subscript(_ name: String) -> JSONValue? {
        withBytes { all in
            // A name beyond ASCII may still equal an ASCII key as a string (the Kelvin sign and
            // K): compared as strings.
            guard let found = name.isASCII ? lastKey(withBytesOf: name, in: all) : lastKey(equalTo: name, in: all) else { return nil }
            var parser = StrictJSON.Parser(bytes: all)
            parser.index = members[found].value.lowerBound
            // Checked when the members were found: the value parses.
            return parser.value(depth: 1)
        }
    }

    /// The index of the last member whose key has the bytes of `name`.
    private func lastKey(withBytesOf name: String, in all: UnsafeBufferPointer<UInt8>) -> Int? {
        name.utf8.withContiguousStorageIfAvailable { name in members.indices.last { Self.key(members[$0].key, in: all, is: name) } }
            ?? lastKey(equalTo: name, in: all)
    }

    /// The index of the last member whose key equals `name` as a string.
    private func lastKey(equalTo name: String, in all: UnsafeBufferPointer<UInt8>) -> Int? {
        members.indices.last { String(decoding: UnsafeBufferPointer(rebasing: all[members[$0].key]), as: UTF8.self) == name }
    }

    /// The members parsed, as ``StrictJSON/parse(_:)`` gives them.
    package var parsed: [String: JSONValue] {
        var parsed: [String: JSONValue] = [:]
        for name in keys { parsed[name] = self[name] }
        return parsed
    }
}
