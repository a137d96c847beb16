/// The keyed container of ``JSONTreeDecoder``: reads the members of one JSON object, held
/// parsed (a dictionary) or as bytes (``JSONObjectMembers``).
struct JSONTreeKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONTreeDecoder
    let members: MemberTable
    /// The coding path of the object.
    let pathNode: CodingPathNode?

    var codingPath: [any CodingKey] { CodingPathNode.path(of: pathNode) }
    var allKeys: [Key] { members.memberNames().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    /// The member at `key`; `keyNotFound` when there is none.
    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try member(key) { true } else { false }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try JSONTreeDecoder.unwrapBool(member(key), under: pathNode, .key(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try JSONTreeDecoder.unwrapString(member(key), under: pathNode, .key(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try JSONTreeDecoder.unwrapDouble(member(key), under: pathNode, .key(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try JSONTreeDecoder.unwrapFloat(member(key), under: pathNode, .key(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(forKey: key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(forKey: key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(forKey: key) }

    private func integer<Integer: FixedWidthInteger>(forKey key: Key) throws -> Integer {
        try JSONTreeDecoder.unwrapInteger(member(key), under: pathNode, .key(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(type, from: member(key), under: pathNode, key: .key(key))
    }

    /// `nil` for a missing member or `null`, otherwise the member decoded (one lookup instead
    /// of the three the protocol's default makes).
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = members[key.stringValue] else { return nil }
        if case .null = value { return nil }
        return try decoder.unwrap(type, from: value, under: pathNode, key: .key(key))
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = members[key.stringValue] else { return nil }
        if case .null = value { return nil }
        return try JSONTreeDecoder.unwrapString(value, under: pathNode, .key(key))
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = members[key.stringValue] else { return nil }
        if case .null = value { return nil }
        return try JSONTreeDecoder.unwrapInteger(value, under: pathNode, .key(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = members[key.stringValue] else { return nil }
        if case .null = value { return nil }
        return try JSONTreeDecoder.unwrapBool(value, under: pathNode, .key(key))
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = members[key.stringValue] else { return nil }
        if case .null = value { return nil }
        return try JSONTreeDecoder.unwrapDouble(value, under: pathNode, .key(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.keyedContainer(type, for: member(key), at: CodingPathNode(parent: pathNode, key: key))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.unkeyedContainer(for: member(key), at: CodingPathNode(parent: pathNode, key: key))
    }

    /// A decoder over the member `super` (`null` when there is none, as in Foundation).
    func superDecoder() throws -> any Decoder {
        JSONTreeDecoder(
            value: members[JSONCoderKey.superKey.stringValue] ?? .null, pathNode: CodingPathNode(parent: pathNode, key: JSONCoderKey.superKey))
    }

    /// A decoder over the member at `key` (`null` when there is none, as in Foundation).
    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONTreeDecoder(value: members[key.stringValue] ?? .null, pathNode: CodingPathNode(parent: pathNode, key: key))
    }
}

/// The unkeyed container of ``JSONTreeDecoder``: reads the elements of one JSON array in turn.
struct JSONTreeUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: JSONTreeDecoder
    let elements: [JSONValue]
    /// The coding path of the array.
    let pathNode: CodingPathNode?
    private(set) var currentIndex = 0

    init(decoder: JSONTreeDecoder, elements: [JSONValue], pathNode: CodingPathNode?) {
        self.decoder = decoder
        self.elements = elements
        self.pathNode = pathNode
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(of: pathNode) }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The element at the current index; `valueNotFound` at the end.
    private func next(_ type: Any.Type, _ description: String = "Unkeyed container is at end.") throws -> JSONValue {
        guard currentIndex < elements.count else {
            let path = CodingPathNode.path(of: pathNode, appending: JSONCoderKey(index: currentIndex))
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: description))
        }
        return elements[currentIndex]
    }

    /// Reads the current element with `read` and moves past it (only when `read` succeeds).
    private mutating func decodeNext<Value>(_ type: Value.Type, _ read: (JSONValue, CodingPathNode?, PendingCodingKey) throws -> Value) throws
        -> Value
    {
        let value = try read(try next(type), pathNode, .index(currentIndex))
        currentIndex += 1
        return value
    }

    /// Whether the current element is `null`; moves past it only if it is.
    mutating func decodeNil() throws -> Bool {
        guard case .null = try next(Any?.self) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeNext(type) { try JSONTreeDecoder.unwrapBool($0, under: $1, $2) } }
    mutating func decode(_ type: String.Type) throws -> String { try decodeNext(type) { try JSONTreeDecoder.unwrapString($0, under: $1, $2) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeNext(type) { try JSONTreeDecoder.unwrapDouble($0, under: $1, $2) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeNext(type) { try JSONTreeDecoder.unwrapFloat($0, under: $1, $2) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer() }

    private mutating func integer<Integer: FixedWidthInteger>() throws -> Integer {
        try decodeNext(Integer.self) { try JSONTreeDecoder.unwrapInteger($0, under: $1, $2) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = decoder
        return try decodeNext(type) { try decoder.unwrap(type, from: $0, under: $1, key: $2) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try next(KeyedDecodingContainer<NestedKey>.self, "Cannot get nested keyed container -- unkeyed container is at end.")
        let container = try decoder.keyedContainer(type, for: value, at: CodingPathNode(parent: pathNode, key: JSONCoderKey(index: currentIndex)))
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try next((any UnkeyedDecodingContainer).self, "Cannot get nested unkeyed container -- unkeyed container is at end.")
        let container = try decoder.unkeyedContainer(for: value, at: CodingPathNode(parent: pathNode, key: JSONCoderKey(index: currentIndex)))
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try next((any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
        let superDecoder = JSONTreeDecoder(value: value, pathNode: CodingPathNode(parent: pathNode, key: JSONCoderKey(index: currentIndex)))
        currentIndex += 1
        return superDecoder
    }
}
