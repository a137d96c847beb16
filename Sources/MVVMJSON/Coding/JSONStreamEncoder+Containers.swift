/// The keyed container of ``JSONStreamEncoder``: writes the member values of one open object.
struct JSONStreamKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONStreamEncoder
    /// The id of the object's frame.
    let frame: Int
    /// The coding path of the object.
    let pathNode: CodingPathNode?

    var codingPath: [any CodingKey] { CodingPathNode.path(of: pathNode) }

    /// Writes one member's value with `write`, once the object is the innermost container.
    private func set(_ key: Key, _ write: (inout JSONBytesWriter) throws -> Void) throws {
        try encoder.makeInnermost(frame)
        let member = encoder.beginMember(key.stringValue)
        try write(&encoder.writer)
        encoder.members[member].end = encoder.writer.count
    }

    mutating func encodeNil(forKey key: Key) throws { try set(key) { $0.append("null") } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try set(key) { $0.append(value ? "true" : "false") } }
    mutating func encode(_ value: String, forKey key: Key) throws { try set(key) { $0.writeString(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        let number = try JSONTreeEncoder.number(value, at: pathNode, .key(key))
        try set(key) { try $0.write(number, depth: 0) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        let number = try JSONTreeEncoder.number(value, at: pathNode, .key(key))
        try set(key) { try $0.write(number, depth: 0) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try set(key) { $0.writeInteger(value.magnitude64, negative: value < 0) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try set(key) { $0.writeInteger(value.magnitude, negative: value < 0) } }
    mutating func encode(_ value: Int128, forKey key: Key) throws { try set(key) { $0.append(bytes: value.description.utf8) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encode(UInt64(value), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(UInt64(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(UInt64(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(UInt64(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try set(key) { $0.writeInteger(value, negative: false) } }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try set(key) { $0.append(bytes: value.description.utf8) } }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.makeInnermost(frame)
        let member = encoder.beginMember(key.stringValue)
        try encoder.encodeValue(value, under: pathNode, key: .key(key))
        encoder.members[member].end = encoder.writer.count
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(
            JSONStreamKeyedEncodingContainer<NestedKey>(
                encoder: encoder, frame: openNested(isObject: true, at: key), pathNode: CodingPathNode(parent: pathNode, key: key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        JSONStreamUnkeyedEncodingContainer(
            encoder: encoder, frame: openNested(isObject: false, at: key), pathNode: CodingPathNode(parent: pathNode, key: key))
    }

    /// Opens a container as the value of the member `key`; gives up (-1) when the object is no
    /// longer open, or already has a member at `key` (a tree would fill that one).
    private func openNested(isObject: Bool, at key: Key) -> Int {
        do {
            try encoder.makeInnermost(frame)
        } catch {
            return -1
        }
        let name = key.stringValue
        let first = encoder.frames[encoder.frames.count - 1].firstMember
        guard !encoder.members[first...].contains(where: { $0.key == name }) else {
            encoder.failed = true
            return -1
        }
        return encoder.open(isObject: isObject, memberIndex: encoder.beginMember(name))
    }

    mutating func superEncoder() -> any Encoder { giveUp() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { giveUp() }

    /// What `superEncoder()` returns: one pass does not write a value whose place is decided
    /// when its encoder goes away.
    private func giveUp() -> any Encoder {
        encoder.failed = true
        return encoder
    }
}

/// The unkeyed container of ``JSONStreamEncoder``: writes the elements of one open array.
struct JSONStreamUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: JSONStreamEncoder
    /// The id of the array's frame.
    let frame: Int
    /// The coding path of the array.
    let pathNode: CodingPathNode?

    var codingPath: [any CodingKey] { CodingPathNode.path(of: pathNode) }
    var count: Int { encoder.frames.last(where: { $0.id == frame })?.count ?? 0 }

    /// Makes the array the innermost container and counts one more element; returns its index.
    private func nextElement() throws -> Int {
        try encoder.makeInnermost(frame)
        let last = encoder.frames.count - 1
        let index = encoder.frames[last].count
        if index > 0 { encoder.writer.append(byte: UInt8(ascii: ",")) }
        encoder.frames[last].count = index + 1
        return index
    }

    mutating func encodeNil() throws {
        _ = try nextElement()
        encoder.writer.append("null")
    }
    mutating func encode(_ value: Bool) throws {
        _ = try nextElement()
        encoder.writer.append(value ? "true" : "false")
    }
    mutating func encode(_ value: String) throws {
        _ = try nextElement()
        encoder.writer.writeString(value)
    }
    mutating func encode(_ value: Double) throws {
        let number = try JSONTreeEncoder.number(value, at: pathNode, .index(count))
        _ = try nextElement()
        try encoder.writer.write(number, depth: 0)
    }
    mutating func encode(_ value: Float) throws {
        let number = try JSONTreeEncoder.number(value, at: pathNode, .index(count))
        _ = try nextElement()
        try encoder.writer.write(number, depth: 0)
    }
    mutating func encode(_ value: Int) throws {
        _ = try nextElement()
        encoder.writer.writeInteger(value.magnitude64, negative: value < 0)
    }
    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws {
        _ = try nextElement()
        encoder.writer.writeInteger(value.magnitude, negative: value < 0)
    }
    mutating func encode(_ value: Int128) throws {
        _ = try nextElement()
        encoder.writer.append(bytes: value.description.utf8)
    }
    mutating func encode(_ value: UInt) throws { try encode(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { try encode(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws {
        _ = try nextElement()
        encoder.writer.writeInteger(value, negative: false)
    }
    mutating func encode(_ value: UInt128) throws {
        _ = try nextElement()
        encoder.writer.append(bytes: value.description.utf8)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = try nextElement()
        try encoder.encodeValue(value, under: pathNode, key: .index(index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let (id, node) = openNested(isObject: true)
        return KeyedEncodingContainer(JSONStreamKeyedEncodingContainer<NestedKey>(encoder: encoder, frame: id, pathNode: node))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let (id, node) = openNested(isObject: false)
        return JSONStreamUnkeyedEncodingContainer(encoder: encoder, frame: id, pathNode: node)
    }

    /// Opens a container as the next element; gives up (-1) when the array is no longer open.
    private func openNested(isObject: Bool) -> (id: Int, pathNode: CodingPathNode) {
        guard let index = try? nextElement() else { return (-1, CodingPathNode(parent: pathNode, key: JSONCoderKey(index: count))) }
        return (encoder.open(isObject: isObject, memberIndex: nil), CodingPathNode(parent: pathNode, key: JSONCoderKey(index: index)))
    }

    mutating func superEncoder() -> any Encoder {
        encoder.failed = true
        return encoder
    }
}

extension Int {
    /// The magnitude as a `UInt64` (an `Int` is at most 64 bits wide).
    fileprivate var magnitude64: UInt64 { UInt64(magnitude) }
}
