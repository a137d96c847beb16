/// The member names a `Codable` type reads at its top level, as its `init(from:)` asks for them:
/// its coding keys' string values, so that custom `CodingKeys` name the JSON members, and members
/// whose default value is `nil` (left out of its encoding) are found too.
package enum TopLevelKeys {
    /// The keys `Value`'s `init(from:)` asks for, in the order it first asks, while it decodes
    /// `value`'s own encoding; empty when it reads no keyed container.
    /// - Throws: what encoding `value` or decoding it back throws.
    package static func of<Value: Codable>(_ value: Value) throws -> [String] {
        guard let encoded = StrictJSON.parse(try JSONBytesEncoder.encodeData(value)) else { return [] }
        let recorder = KeyRecorder()
        _ = try Value(from: KeyRecordingDecoder(base: JSONTreeDecoder(value: encoded, pathNode: nil), recorder: recorder))
        return recorder.keys
    }
}

/// The keys asked for, each once, in the order first asked.
private final class KeyRecorder {
    private(set) var keys: [String] = []

    func record(_ key: some CodingKey) {
        if !keys.contains(key.stringValue) { keys.append(key.stringValue) }
    }
}

/// A decoder whose top-level keyed container records every key asked of it; everything else is
/// the framework's decoder's.
private struct KeyRecordingDecoder: Decoder {
    let base: JSONTreeDecoder
    let recorder: KeyRecorder

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyRecordingContainer(base: try base.container(keyedBy: type), recorder: recorder))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try base.unkeyedContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try base.singleValueContainer()
    }
}

/// A keyed container that records each key asked of it, then asks the framework's container.
private struct KeyRecordingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>
    let recorder: KeyRecorder

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] { base.allKeys }

    func contains(_ key: Key) -> Bool {
        recorder.record(key)
        return base.contains(key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        recorder.record(key)
        return try base.decodeNil(forKey: key)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try recorded(key) { try base.decode(type, forKey: key) } }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try recorded(key) { try base.decode(type, forKey: key) } }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try recorded(key) { try base.nestedContainer(keyedBy: type, forKey: key) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try recorded(key) { try base.nestedUnkeyedContainer(forKey: key) }
    }

    func superDecoder() throws -> any Decoder {
        try base.superDecoder()
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try recorded(key) { try base.superDecoder(forKey: key) }
    }

    private func recorded<Result>(_ key: Key, _ read: () throws -> Result) rethrows -> Result {
        recorder.record(key)
        return try read()
    }
}
