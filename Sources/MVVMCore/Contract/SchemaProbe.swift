import MVVMJSON

/// What one decoding of a type with ``SchemaProbeDecoder`` found: the shape of the JSON its
/// `init(from:)` reads, built as it asks for containers and values.
final class ProbedShape {
    /// The container the decoding asked for.
    enum Kind {
        /// Nothing yet (a decoding that asked for nothing).
        case none
        /// An object of named members (a struct, a class).
        case object
        /// An object with one member whose name is one of `cases` (an enum with payloads).
        case union(cases: [String])
        /// An object of any member names (a dictionary).
        case map
        /// An array.
        case array
        /// A single value.
        case single
    }

    var kind = Kind.none
    /// The members of an object, in the order asked; each case's payload of a union.
    var members: [(name: String, schema: JSONValue)] = []
    /// The members asked for without `IfPresent`.
    var required: Set<String> = []
    /// The members whose presence was asked about.
    var optionalNames: Set<String> = []
    /// The schema of a dictionary's values, an array's items, or a single value.
    var element: JSONValue?
    /// Whether the single value may be `null` (it was asked whether it is).
    var isNullable = false

    /// Notes a member, once: the first schema asked for a name stands.
    func note(_ name: String, _ schema: JSONValue, required isRequired: Bool) {
        if !members.contains(where: { $0.name == name }) { members.append((name, schema)) }
        if isRequired { required.insert(name) }
    }

    /// The schema of the shape.
    var schema: JSONValue {
        switch kind {
        case .none, .object:
            return SchemaWriting.object(members, required: required)
        case .union(let cases):
            let payloads = Dictionary(members.map { ($0.name, $0.schema) }) { first, _ in first }
            return .object([
                "oneOf": .array(
                    cases.map { name in
                        SchemaWriting.object([(name, payloads[name] ?? SchemaWriting.object([], required: []))], required: [name])
                    })
            ])
        case .map:
            return .object(["type": .string("object"), "additionalProperties": element ?? .object([:])])
        case .array:
            var schema: [String: JSONValue] = ["type": .string("array")]
            if let element { schema["items"] = element }
            return .object(schema)
        case .single:
            let value = element ?? .object([:])
            return isNullable ? SchemaWriting.nullable(value) : value
        }
    }
}

/// The state of one probing decoding: the describer that describes the values asked for, which
/// case an enum's decoding is handed, and whether optionals are present.
final class SchemaProbe {
    let describer: TypeDescriber
    /// The case an enum's decoding finds (its index among the coding keys).
    let caseChoice: Int
    /// `false` for a stand-in value only: optionals absent, arrays and dictionaries empty, and
    /// nothing described (the decoding of a type already being described, which refers to itself).
    let isDescribing: Bool
    /// The cases of the enum being decoded, once its decoding asked which one it holds.
    var unionCases: [String]?

    init(describer: TypeDescriber, caseChoice: Int = 0, isDescribing: Bool = true) {
        self.describer = describer
        self.caseChoice = caseChoice
        self.isDescribing = isDescribing
    }

    /// The schema of a value of `type` and a stand-in for it.
    func value<Value: Decodable>(_ type: Value.Type) throws -> (schema: JSONValue, value: Value) {
        if isDescribing { return try describer.describe(type) }
        return (.object([:]), try describer.standIn(type))
    }
}

/// A `Decoder` that hands a type's `init(from:)` stand-in values (an empty string, zero, the
/// first case of an enum) and notes, in a ``ProbedShape``, every container and value it asks for.
struct SchemaProbeDecoder: Decoder {
    let probe: SchemaProbe
    let shape: ProbedShape
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if case .none = shape.kind { shape.kind = .object }
        return KeyedDecodingContainer(SchemaProbeKeyedContainer<Key>(probe: probe, shape: shape))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        shape.kind = .array
        return SchemaProbeUnkeyedContainer(probe: probe, shape: shape)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        shape.kind = .single
        return SchemaProbeSingleValueContainer(probe: probe, shape: shape)
    }
}

/// The keyed container of ``SchemaProbeDecoder``: an object's members, an enum's case (once its
/// decoding asks for `allKeys`), or a dictionary's entries (keys that are not an enum).
struct SchemaProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: SchemaProbe
    let shape: ProbedShape
    var codingPath: [any CodingKey] { [] }

    /// Asked by an enum's decoding (which case is it?) and a dictionary's (which keys?): the
    /// probe's chosen case of an enum of coding keys; one key, `0`, of any other key type, so
    /// that dictionaries keyed by strings and by numbers both decode it.
    var allKeys: [Key] {
        if let cases = CodingKeyCases.all(of: Key.self) {
            shape.kind = .union(cases: cases.map(\.stringValue))
            probe.unionCases = cases.map(\.stringValue)
            return cases.indices.contains(probe.caseChoice) ? [cases[probe.caseChoice]] : []
        }
        shape.kind = .map
        guard probe.isDescribing else { return [] }
        return Key(stringValue: "0").map { [$0] } ?? []
    }

    /// A member asked about before it is decoded is optional (as the standard library's
    /// `decodeIfPresent` of a scalar asks).
    func contains(_ key: Key) -> Bool {
        shape.optionalNames.insert(key.stringValue)
        return probe.isDescribing
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        !probe.isDescribing
    }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        let (schema, value) = try probe.value(type)
        note(key, schema, required: !shape.optionalNames.contains(key.stringValue))
        return value
    }

    /// An optional member: present, unless its type cannot be described (then absent, so that
    /// the rest of the type still is).
    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        guard probe.isDescribing else { return nil }
        do {
            let (schema, value) = try probe.value(type)
            note(key, schema, required: false)
            return value
        } catch {
            note(key, probe.describer.schema(of: type), required: false)
            return nil
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = ProbedShape()
        nested.kind = .object
        // Noted now, and again by the nested container as its members are noted.
        note(key, nested.schema, required: true)
        return KeyedDecodingContainer(SchemaProbeKeyedContainer<NestedKey>(probe: probe, shape: nested, parent: (shape, key.stringValue)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let nested = ProbedShape()
        nested.kind = .array
        note(key, nested.schema, required: true)
        return SchemaProbeUnkeyedContainer(probe: probe, shape: nested, parent: (shape, key.stringValue))
    }

    func superDecoder() throws -> any Decoder {
        throw ProbeError.unsupported("decodes a superclass (superDecoder)")
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw ProbeError.unsupported("decodes a superclass (superDecoder)")
    }

    /// Notes a member of the object or map this container reads.
    private func note(_ key: Key, _ schema: JSONValue, required: Bool) {
        switch shape.kind {
        case .map:
            shape.element = shape.element ?? schema
        default:
            shape.note(key.stringValue, schema, required: required)
        }
        parent.map { $0.shape.replace($0.name, with: shape.schema) }
    }

    /// The shape and member this container's object is nested in, kept up to date as members
    /// are noted.
    var parent: (shape: ProbedShape, name: String)?

    init(probe: SchemaProbe, shape: ProbedShape, parent: (shape: ProbedShape, name: String)? = nil) {
        self.probe = probe
        self.shape = shape
        self.parent = parent
    }
}

/// The unkeyed container of ``SchemaProbeDecoder``: an array of one stand-in element while
/// describing (so that its items are described), of none otherwise.
final class SchemaProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let probe: SchemaProbe
    let shape: ProbedShape
    let parent: (shape: ProbedShape, name: String)?
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] { [] }
    var count: Int? { probe.isDescribing ? 1 : 0 }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    init(probe: SchemaProbe, shape: ProbedShape, parent: (shape: ProbedShape, name: String)? = nil) {
        self.probe = probe
        self.shape = shape
        self.parent = parent
    }

    func decodeNil() throws -> Bool {
        shape.isNullable = true
        return false
    }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        let (schema, value) = try probe.value(type)
        if shape.element == nil {
            shape.element = shape.isNullable ? SchemaWriting.nullable(schema) : schema
            parent.map { $0.shape.replace($0.name, with: shape.schema) }
        }
        currentIndex += 1
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw ProbeError.unsupported("decodes an array of nested containers")
    }

    func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw ProbeError.unsupported("decodes an array of nested containers")
    }

    func superDecoder() throws -> any Decoder {
        throw ProbeError.unsupported("decodes a superclass (superDecoder)")
    }
}

/// The single-value container of ``SchemaProbeDecoder``: the one value a type decodes itself
/// from (`Optional`, a type that wraps another, a raw-value enum).
struct SchemaProbeSingleValueContainer: SingleValueDecodingContainer {
    let probe: SchemaProbe
    let shape: ProbedShape
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool {
        shape.isNullable = true
        return !probe.isDescribing
    }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        let (schema, value) = try probe.value(type)
        shape.element = shape.element ?? schema
        return value
    }
}

/// Why a type's decoding could not be followed.
enum ProbeError: Error, CustomStringConvertible {
    /// The decoding asks for something the probe does not follow.
    case unsupported(String)
    /// Stand-ins for a type that refers to itself nest too deeply.
    case tooDeep

    var description: String {
        switch self {
        case .unsupported(let what): "its decoding \(what)"
        case .tooDeep: "its stand-in values nest too deeply"
        }
    }
}

extension ProbedShape {
    /// Replaces the schema of a member noted before (a nested container's, as it fills).
    func replace(_ name: String, with schema: JSONValue) {
        guard let index = members.firstIndex(where: { $0.name == name }) else {
            note(name, schema, required: true)
            return
        }
        members[index].schema = schema
    }
}
