import Foundation

/// The members an object sends over those of another it changes (an input's members sent over
/// its current ones): what a keyed container of ``decode(_:)`` reads.
package final class JSONObjectMembers {
    /// The members sent.
    package let sent: JSONObjectBytes
    /// The members that those sent change, read for a name not sent; `nil` for none.
    package let base: JSONObjectBytes?

    /// The members `sent` over those of `base`.
    package init(_ sent: JSONObjectBytes, over base: JSONObjectBytes?) {
        self.sent = sent
        self.base = base
    }

    subscript(_ name: String) -> JSONValue? {
        sent[name] ?? base?[name]
    }

    func memberNames() -> [String] {
        Array(Set(sent.keys).union(base?.keys ?? []))
    }

    /// The merged members, parsed.
    var parsed: [String: JSONValue] {
        (base?.parsed ?? [:]).merging(sent.parsed) { _, new in new }
    }

    /// Decodes a `T` from the members, as ``JSONValue/decode(_:)`` decodes it from the merged
    /// object (the same value, or the same error), without building the object: a keyed
    /// container parses a member's value when it is read. For a type decoded from a keyed
    /// container; a type that ``JSONValue/decode(_:)`` reads as a scalar (a `Date`, a
    /// `Decimal`) goes through `JSONValue`.
    package func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: JSONObjectDecoder(members: self))
    }
}

/// The top-level `Decoder` of ``JSONObjectMembers/decode(_:)``: a keyed container over the
/// members; anything else over the merged object, parsed.
final class JSONObjectDecoder: Decoder {
    let members: JSONObjectMembers
    /// What decodes the members' values.
    private let values = JSONTreeDecoder(value: .null, pathNode: nil)

    init(members: JSONObjectMembers) {
        self.members = members
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(JSONTreeKeyedDecodingContainer<Key>(decoder: values, members: .bytes(members), pathNode: nil))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try JSONTreeDecoder(value: .object(members.parsed), pathNode: nil).unkeyedContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try JSONTreeDecoder(value: .object(members.parsed), pathNode: nil).singleValueContainer()
    }
}
