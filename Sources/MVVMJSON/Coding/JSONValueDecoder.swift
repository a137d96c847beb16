import Foundation

/// A fast `Decodable` decoder that reads a parsed ``JSONValue`` directly (no bytes are written
/// and parsed again), with the semantics and the `DecodingError`s (cases and coding paths) of
/// Foundation's `JSONDecoder` with the default strategies:
///
/// - integers accept whole numbers in range and throw `dataCorrupted` for a fraction or a
///   number out of range; `Bool` and `String` accept no numbers; a wrong type throws
///   `typeMismatch`, `null` where a value is required `valueNotFound`, a missing member
///   `keyNotFound` (with the coding path of the object);
/// - `Date` is read from a number (seconds since the reference date), `Data` from a base64
///   string, `URL` from a string, `Decimal` from a number.
///
/// ``JSONValue`` keeps a whole number within `Int64`'s range exactly, so integers of any size up
/// to `Int64.max` arrive digit for digit, as Foundation reads them; other numbers are `Double`s:
/// a `UInt64` beyond `Int64.max` arrives rounded, a fractional `Decimal` only keeps a `Double`'s
/// 17 significant digits, and a `Float` is rounded from the `Double`, not from the digits.
enum JSONValueDecoder {
    /// Decodes a `T` from `value`.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONTreeDecoder(value: value, pathNode: nil).unwrap(type, from: value, under: nil, key: .none)
    }
}

/// The members of a JSON object, by name: what a keyed container reads (an enum, not a
/// protocol: a keyed container's calls come through its type-erased box unspecialized).
enum MemberTable {
    /// Parsed members.
    case parsed([String: JSONValue])
    /// Members still in their bytes.
    case bytes(JSONObjectMembers)

    /// The value of the member `name`, or `nil` when there is none.
    subscript(_ name: String) -> JSONValue? {
        switch self {
        case .parsed(let members): members[name]
        case .bytes(let members): members[name]
        }
    }

    /// The members' names.
    func memberNames() -> [String] {
        switch self {
        case .parsed(let members): Array(members.keys)
        case .bytes(let members): members.memberNames()
        }
    }
}

/// The `Decoder` behind ``JSONValueDecoder``.
///
/// One instance decodes a whole value: descending into a member saves the current position
/// (its value and coding path), decodes the member in place and restores it. Containers keep
/// their own value and path, so they stay valid while members are decoded. It is also its
/// own single-value container, as Foundation's decoder is.
final class JSONTreeDecoder: Decoder, SingleValueDecodingContainer {
    /// The value at the current position.
    private(set) var value: JSONValue
    /// The coding path of the current position (`nil` at the top level).
    private(set) var pathNode: CodingPathNode?

    init(value: JSONValue, pathNode: CodingPathNode?) {
        self.value = value
        self.pathNode = pathNode
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(of: pathNode) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyedContainer(type, for: value, at: pathNode)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(for: value, at: pathNode)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// A keyed container over `value`, which must be an object.
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, for value: JSONValue, at node: CodingPathNode?) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw Self.mismatch([String: Any].self, value, at: node, .none, container: "keyed decoding container")
        }
        return KeyedDecodingContainer(JSONTreeKeyedDecodingContainer<Key>(decoder: self, members: .parsed(members), pathNode: node))
    }

    /// An unkeyed container over `value`, which must be an array.
    func unkeyedContainer(for value: JSONValue, at node: CodingPathNode?) throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw Self.mismatch([Any].self, value, at: node, .none, container: "unkeyed decoding container")
        }
        return JSONTreeUnkeyedDecodingContainer(decoder: self, elements: elements, pathNode: node)
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool {
        if case .null = value { true } else { false }
    }

    func decode(_ type: Bool.Type) throws -> Bool { try Self.unwrapBool(value, under: pathNode, .none) }
    func decode(_ type: String.Type) throws -> String { try Self.unwrapString(value, under: pathNode, .none) }
    func decode(_ type: Double.Type) throws -> Double { try Self.unwrapDouble(value, under: pathNode, .none) }
    func decode(_ type: Float.Type) throws -> Float { try Self.unwrapFloat(value, under: pathNode, .none) }
    func decode(_ type: Int.Type) throws -> Int { try Self.unwrapInteger(value, under: pathNode, .none) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Self.unwrapInteger(value, under: pathNode, .none) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Self.unwrapInteger(value, under: pathNode, .none) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Self.unwrapInteger(value, under: pathNode, .none) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Self.unwrapInteger(value, under: pathNode, .none) }
    func decode(_ type: Int128.Type) throws -> Int128 { try Self.unwrapInteger(value, under: pathNode, .none) }
    func decode(_ type: UInt.Type) throws -> UInt { try Self.unwrapInteger(value, under: pathNode, .none) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Self.unwrapInteger(value, under: pathNode, .none) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Self.unwrapInteger(value, under: pathNode, .none) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Self.unwrapInteger(value, under: pathNode, .none) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Self.unwrapInteger(value, under: pathNode, .none) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try Self.unwrapInteger(value, under: pathNode, .none) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unwrap(type, from: value, under: pathNode, key: .none) }

    // MARK: Decoding values

    /// Decodes a `T` from `value`, found under `parent` at `key`.
    func unwrap<T: Decodable>(_ type: T.Type, from value: JSONValue, under parent: CodingPathNode?, key: PendingCodingKey) throws -> T {
        if let scalar = try Self.unwrapScalar(type, from: value, under: parent, key) { return scalar }
        let savedValue = self.value
        let savedPathNode = pathNode
        self.value = value
        if let codingKey = key.codingKey {
            pathNode = CodingPathNode(parent: parent, key: codingKey)
        } else {
            pathNode = parent
        }
        defer {
            self.value = savedValue
            pathNode = savedPathNode
        }
        return try T(from: self)
    }
}
