/// The keyed container of ``JSONTreeEncoder``: sets members of one ``EncodedObject``.
struct JSONTreeKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONTreeEncoder
    let object: EncodedObject
    /// The coding path of the object.
    let pathNode: CodingPathNode?

    var codingPath: [any CodingKey] { CodingPathNode.path(of: pathNode) }

    mutating func encodeNil(forKey key: Key) throws { object.set(.null, for: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(.bool(value), for: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { object.set(.string(value), for: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(try JSONTreeEncoder.number(value, at: pathNode, .key(key)), for: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.set(try JSONTreeEncoder.number(value, at: pathNode, .key(key)), for: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(.int(Int64(value)), for: key.stringValue) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(.int(Int64(value)), for: key.stringValue) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(.int(Int64(value)), for: key.stringValue) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(.int(Int64(value)), for: key.stringValue) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(.int(value), for: key.stringValue) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { object.set(.number(value.description), for: key.stringValue) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(.uint(UInt64(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(.uint(UInt64(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { object.set(.uint(UInt64(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { object.set(.uint(UInt64(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(.uint(value), for: key.stringValue) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { object.set(.number(value.description), for: key.stringValue) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(try encoder.encodeValue(value, under: pathNode, key: .key(key)), for: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = object.nestedObject(for: key.stringValue)
        return KeyedEncodingContainer(
            JSONTreeKeyedEncodingContainer<NestedKey>(encoder: encoder, object: nested, pathNode: CodingPathNode(parent: pathNode, key: key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = object.nestedArray(for: key.stringValue)
        return JSONTreeUnkeyedEncodingContainer(encoder: encoder, array: nested, pathNode: CodingPathNode(parent: pathNode, key: key))
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(under: JSONCoderKey.superKey)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(under: key)
    }

    private func superEncoder(under key: any CodingKey) -> any Encoder {
        let superEncoder = JSONTreeEncoder(pathNode: CodingPathNode(parent: pathNode, key: key))
        object.set(.deferred(superEncoder), for: key.stringValue)
        return superEncoder
    }
}

/// The unkeyed container of ``JSONTreeEncoder``: appends elements to one ``EncodedArray``.
struct JSONTreeUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: JSONTreeEncoder
    let array: EncodedArray
    /// The coding path of the array.
    let pathNode: CodingPathNode?

    var codingPath: [any CodingKey] { CodingPathNode.path(of: pathNode) }
    var count: Int { array.elements.count }

    mutating func encodeNil() throws { array.elements.append(.null) }
    mutating func encode(_ value: Bool) throws { array.elements.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.elements.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.elements.append(try JSONTreeEncoder.number(value, at: pathNode, .index(count))) }
    mutating func encode(_ value: Float) throws { array.elements.append(try JSONTreeEncoder.number(value, at: pathNode, .index(count))) }
    mutating func encode(_ value: Int) throws { array.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { array.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { array.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { array.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { array.elements.append(.int(value)) }
    mutating func encode(_ value: Int128) throws { array.elements.append(.number(value.description)) }
    mutating func encode(_ value: UInt) throws { array.elements.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { array.elements.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { array.elements.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { array.elements.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { array.elements.append(.uint(value)) }
    mutating func encode(_ value: UInt128) throws { array.elements.append(.number(value.description)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.elements.append(try encoder.encodeValue(value, under: pathNode, key: .index(count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedObject()
        let node = CodingPathNode(parent: pathNode, key: JSONCoderKey(index: count))
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(JSONTreeKeyedEncodingContainer<NestedKey>(encoder: encoder, object: nested, pathNode: node))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        let node = CodingPathNode(parent: pathNode, key: JSONCoderKey(index: count))
        array.elements.append(.array(nested))
        return JSONTreeUnkeyedEncodingContainer(encoder: encoder, array: nested, pathNode: node)
    }

    mutating func superEncoder() -> any Encoder {
        let superEncoder = JSONTreeEncoder(pathNode: CodingPathNode(parent: pathNode, key: JSONCoderKey(index: count)))
        array.elements.append(.deferred(superEncoder))
        return superEncoder
    }
}
