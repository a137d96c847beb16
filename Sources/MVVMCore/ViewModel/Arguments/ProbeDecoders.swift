/// The decoder of ``ArgumentProbe``. With `actionName`, an action is decoded with it: its keyed
/// container holds exactly that name (`{name: arguments}`, how Swift decodes an enum case), and
/// the arguments object under it notes each member asked for; a single value (an action enum of
/// strings) decodes as the name. Without, it decodes the arguments object alone
/// (``ActionArguments/decode(_:)`` while probing), noting each member asked for.
struct ProbeDecoder: Decoder {
    let actionName: String?
    let probe: ArgumentProbe
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeContainer<Key>(probe: probe, actionName: actionName))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        StandInDecoder.Unkeyed()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        actionName.map { NameContainer(name: $0) } ?? StandInDecoder.Single()
    }

    /// A single value that is the action's name.
    struct NameContainer: SingleValueDecodingContainer {
        let name: String
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { false }
        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            if let name = name as? Value { return name }
            return try ArgumentProbe.standIn(type)
        }
    }
}

/// With `actionName`, the container of `{name: arguments}`: it holds the name alone, and the
/// arguments under it note their members. Without, the arguments object itself.
struct ProbeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: ArgumentProbe
    let actionName: String?
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { actionName.flatMap { Key(stringValue: $0) }.map { [$0] } ?? [] }

    func contains(_ key: Key) -> Bool {
        if let actionName { return key.stringValue == actionName }
        // Only `decodeIfPresent` asks before decoding: the member is optional.
        probe.markOptional(key.stringValue)
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        guard actionName == nil else { return try ArgumentProbe.standIn(type) }
        // A case's one unlabelled value of an object type is decoded from the whole arguments
        // object (``ViewModelAction/init(name:arguments:)``): its members are the arguments.
        if key.stringValue == ActionArguments.unlabelledValue, ArgumentProbe.describe(type).0 == "object" {
            return try ActionArguments(probing: probe).decode(type)
        }
        probe.note(key.stringValue, type, required: !probe.isOptional(key.stringValue))
        return try ArgumentProbe.standIn(type)
    }

    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        if actionName == nil { probe.note(key.stringValue, type, required: false) }
        return try ArgumentProbe.standIn(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        guard actionName != nil else {
            probe.note(key.stringValue, [String: String].self, required: true)
            return KeyedDecodingContainer(StandInDecoder.Keyed<NestedKey>())
        }
        return KeyedDecodingContainer(ProbeContainer<NestedKey>(probe: probe, actionName: nil))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        if actionName == nil { probe.note(key.stringValue, [String].self, required: true) }
        return StandInDecoder.Unkeyed()
    }

    func superDecoder() throws -> any Decoder { StandInDecoder() }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        actionName != nil ? ProbeDecoder(actionName: nil, probe: probe) : StandInDecoder()
    }
}

/// A decoder that answers every request with a stand-in: no keys, empty arrays, nil where
/// allowed, and the stand-in of each value asked for.
struct StandInDecoder: Decoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>())
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single() }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { false }
        func decodeNil(forKey key: Key) throws -> Bool { true }
        func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value { try ArgumentProbe.standIn(type) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(Keyed<NestedKey>())
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { Unkeyed() }
        func superDecoder() throws -> any Decoder { StandInDecoder() }
        func superDecoder(forKey key: Key) throws -> any Decoder { StandInDecoder() }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }
        mutating func decodeNil() throws -> Bool { true }
        mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try ArgumentProbe.standIn(type) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(Keyed<NestedKey>())
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed() }
        mutating func superDecoder() throws -> any Decoder { StandInDecoder() }
    }

    struct Single: SingleValueDecodingContainer {
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { false }
        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try ArgumentProbe.standIn(type) }
    }
}
