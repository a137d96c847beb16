import MVVMJSON

/// Describes `Codable` types as JSON Schemas, exactly as the framework's encoder writes them, by
/// decoding each type once from stand-in values (``SchemaProbeDecoder``).
///
/// Each struct, class and enum becomes a component, referred to by `$ref`; arrays, dictionaries,
/// optionals and scalars are written in place. The rules:
/// - a member decoded with `decodeIfPresent` (a synthesized optional) is not required, and not
///   `null`: the encoder leaves a `nil` out; an optional written as `null` (in an array, say) is
///   `null` or its type;
/// - `String` and `Int` raw-value enums are an `enum` of their raw values;
/// - other enums are a `oneOf` of single-member objects, `{"case": {payload}}`, as `Codable`
///   writes them, `{}` for a case without payload;
/// - a type that refers to itself is a reference to its own component.
///
/// A type whose decoding cannot be followed, or whose encoding does not fit the schema its
/// decoding gave, is reported in ``warnings`` by name; it may describe itself
/// (``JSONSchemaDescribing``).
///
/// One describer serves one contract, from one thread.
package final class TypeDescriber {
    /// A component: its type's full name (for its final name) and its schema.
    private struct Component {
        let reflectedName: String
        var schema: JSONValue
    }

    private var components: [ObjectIdentifier: Component] = [:]
    private var inProgress: Set<ObjectIdentifier> = []
    private var standIns: [ObjectIdentifier: Any] = [:]
    private var standInDepth = 0
    /// The checks of stand-ins' encodings, run once every component is known.
    private var pendingChecks: [(JSONSchemaValidator) -> Void] = []
    private var reportedWarnings: [String] = []

    /// What could not be described exactly, each naming its type.
    package var warnings: [String] {
        runPendingChecks()
        return reportedWarnings
    }

    package init() {}

    /// The schema of `type`: a reference to its component when it is a named type.
    package func schema<Value: Decodable>(of type: Value.Type) -> JSONValue {
        do {
            return try describe(type).schema
        } catch {
            return Self.reference(String(reflecting: type))
        }
    }

    /// The schema a reference names, as described so far; any other schema as it is.
    package func resolved(_ schema: JSONValue) -> JSONValue {
        guard case .string(let reference)? = schema.objectValue?["$ref"], reference.hasPrefix(ComponentNames.placeholderPrefix) else { return schema }
        let name = String(reference.dropFirst(ComponentNames.placeholderPrefix.count))
        return components.values.first { $0.reflectedName == name }?.schema ?? schema
    }

    /// The schema of `type`, and a stand-in value of it.
    func describe<Value: Decodable>(_ type: Value.Type) throws -> (schema: JSONValue, value: Value) {
        if let (schema, standIn) = SchemaWriting.scalar(type), let value = standIn as? Value { return (schema, value) }
        guard Self.isNamed(type) else { return try probe(type) }
        let id = ObjectIdentifier(type)
        let reference = Self.reference(String(reflecting: type))
        if components[id] != nil || inProgress.contains(id) { return (reference, try standIn(type)) }
        inProgress.insert(id)
        defer { inProgress.remove(id) }
        do {
            let (schema, value) = try namedSchema(type)
            components[id] = Component(reflectedName: String(reflecting: type), schema: schema)
            pendingChecks.append { [unowned self] validator in check(value, of: type, against: schema, with: validator) }
            standIns[id] = value
            return (reference, value)
        } catch {
            warn("\(Self.displayName(type)) cannot be described: \(error); conform it to JSONSchemaDescribing")
            components[id] = Component(
                reflectedName: String(reflecting: type),
                schema: .object(["description": .string("Not described: \(Self.displayName(type)) could not be probed.")]))
            throw error
        }
    }

    /// The schema of a named type: its own, its raw values', or what its decoding reads.
    private func namedSchema<Value: Decodable>(_ type: Value.Type) throws -> (JSONValue, Value) {
        if let described = type as? any JSONSchemaDescribing.Type {
            let schema = described.jsonSchema.json
            return (schema, try SchemaWriting.example(of: schema).decode(type))
        }
        if let (schema, first) = SchemaWriting.rawValueEnumeration(type) { return (schema, first) }
        return try probe(type)
    }

    /// Decodes `type` with a probe: once, and once more for each further case of an enum.
    private func probe<Value: Decodable>(_ type: Value.Type) throws -> (schema: JSONValue, value: Value) {
        let shape = ProbedShape()
        let first = SchemaProbe(describer: self)
        let value = try Value(from: SchemaProbeDecoder(probe: first, shape: shape))
        if let cases = first.unionCases {
            for choice in cases.indices.dropFirst() {
                _ = try Value(from: SchemaProbeDecoder(probe: SchemaProbe(describer: self, caseChoice: choice), shape: shape))
            }
        }
        return (shape.schema, value)
    }

    /// A stand-in value of `type`: optionals absent, collections empty, an enum's first case.
    func standIn<Value: Decodable>(_ type: Value.Type) throws -> Value {
        if let (_, standIn) = SchemaWriting.scalar(type), let value = standIn as? Value { return value }
        if let value = standIns[ObjectIdentifier(type)] as? Value { return value }
        if let described = type as? any JSONSchemaDescribing.Type {
            return try SchemaWriting.example(of: described.jsonSchema.json).decode(type)
        }
        if let (_, first) = SchemaWriting.rawValueEnumeration(type) { return first }
        guard standInDepth < 32 else { throw ProbeError.tooDeep }
        standInDepth += 1
        defer { standInDepth -= 1 }
        return try Value(from: SchemaProbeDecoder(probe: SchemaProbe(describer: self, isDescribing: false), shape: ProbedShape()))
    }

    /// Checks that the stand-in's encoding fits the schema found from the decoding: a type
    /// whose encoding is its own shows here.
    private func check<Value>(_ value: Value, of type: Value.Type, against schema: JSONValue, with validator: JSONSchemaValidator) {
        guard let encodable = value as? any Encodable, let encoded = try? JSONValue(encoding: encodable) else { return }
        if let mismatch = validator.mismatch(of: encoded, against: schema) {
            warn("\(Self.displayName(type)) encodes otherwise than it decodes (\(mismatch)); conform it to JSONSchemaDescribing")
        }
    }

    private func warn(_ warning: String) {
        if !reportedWarnings.contains(warning) { reportedWarnings.append(warning) }
    }

    /// Runs the checks noted since the last run, with one validator over every component
    /// described so far.
    private func runPendingChecks() {
        guard !pendingChecks.isEmpty else { return }
        let checks = pendingChecks
        pendingChecks = []
        let validator = JSONSchemaValidator(components: Dictionary(components.values.map { ($0.reflectedName, $0.schema) }) { first, _ in first })
        checks.forEach { $0(validator) }
    }

    /// The components described so far under their final names, and the references to them in
    /// any schema rewritten to those names (``ComponentNames``).
    package func finish() -> (components: [String: JSONValue], names: ComponentNames) {
        runPendingChecks()
        let names = ComponentNames(reflectedNames: components.values.map(\.reflectedName))
        let named = Dictionary(components.values.map { (names.name(of: $0.reflectedName), names.rewrite($0.schema)) }) { first, _ in first }
        return (named, names)
    }

    /// A reference to the component of the type of this full name, until names are final.
    static func reference(_ reflectedName: String) -> JSONValue {
        .object(["$ref": .string(ComponentNames.placeholderPrefix + reflectedName)])
    }

    /// Whether a type gets a component: any type but the standard library's collections and
    /// optionals, and scalars.
    private static func isNamed(_ type: any Any.Type) -> Bool {
        !(type is any StructuralCodable.Type)
    }

    /// The type's name as a warning shows it.
    private static func displayName(_ type: any Any.Type) -> String {
        ComponentNames.cleaned(String(reflecting: type))
    }
}

/// The standard library's generic containers, which are described in place, never named.
protocol StructuralCodable {}
extension Array: StructuralCodable {}
extension ContiguousArray: StructuralCodable {}
extension Set: StructuralCodable {}
extension Dictionary: StructuralCodable {}
extension Optional: StructuralCodable {}
