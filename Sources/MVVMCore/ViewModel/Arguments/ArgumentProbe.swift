import Synchronization

/// Finds the arguments of an action by decoding it once from nothing: a `Decoder` that hands
/// every value asked for a stand-in (an empty string, zero, false, an empty array) and notes the
/// name and type of each member the action's arguments ask for.
final class ArgumentProbe: Sendable {
    private let noted = Mutex<[ActionArgument]>([])
    private let optional = Mutex<Set<String>>([])

    /// The arguments noted so far, in order.
    var arguments: [ActionArgument] {
        noted.withLock { $0 }
    }

    /// The arguments of `Action`'s action `name`, in the order its decoding asks for them;
    /// those asked for before a decoding that failed when the stand-ins do not fit it.
    static func arguments<Action: ViewModelAction>(of name: String, in type: Action.Type) -> [ActionArgument] {
        let probe = ArgumentProbe()
        _ = try? Action(name: name, arguments: ActionArguments(probing: probe))
        var seen = Set<String>()
        return probe.arguments.filter { seen.insert($0.name).inserted }
    }

    /// Marks a member as optional: it was asked whether it is present before it was decoded.
    func markOptional(_ name: String) {
        optional.withLock { _ = $0.insert(name) }
    }

    /// Whether a member was marked optional.
    func isOptional(_ name: String) -> Bool {
        optional.withLock { $0.contains(name) }
    }

    /// Notes the arguments of an ``ItemReference``: `id` (a string or a number), or `section`
    /// and `item`; none of them required alone.
    func noteItemReference() {
        note("id", String.self, required: false)
        note("section", Int.self, required: false)
        note("item", Int.self, required: false)
    }

    /// Notes a top-level argument.
    func note(_ name: String, _ value: any Any.Type, required: Bool) {
        let (type, values) = Self.describe(value)
        noted.withLock { $0.append(ActionArgument(name: name, type: type, required: required, values: values)) }
    }

    /// A stand-in value of `type`: a JSON primitive's, an enumeration's first case, or what
    /// ``StandInDecoder`` decodes.
    static func standIn<Value: Decodable>(_ type: Value.Type) throws -> Value {
        if let value = primitive(type)?.standIn as? Value { return value }
        if let cases = type as? any CaseIterable.Type, let first = firstCase(of: cases) as? Value {
            return first
        }
        return try Value(from: StandInDecoder())
    }

    /// For a Swift type that encodes as a JSON primitive: that primitive's type, and a stand-in
    /// value; `nil` for other types.
    static func primitive(_ type: any Any.Type) -> (json: String, standIn: Any)? {
        switch type {
        case is String.Type: ("string", "")
        case is Bool.Type: ("boolean", false)
        case is Int.Type: ("integer", 0)
        case is Int64.Type: ("integer", Int64(0))
        case is Int32.Type: ("integer", Int32(0))
        case is UInt.Type: ("integer", UInt(0))
        case is UInt64.Type: ("integer", UInt64(0))
        case is Double.Type: ("number", 0.0)
        case is Float.Type: ("number", Float(0))
        default: nil
        }
    }

    /// The JSON type of a Swift type, and its values when it is an enumeration of strings.
    static func describe(_ type: any Any.Type) -> (String, [String]?) {
        if let primitive = primitive(type) { return (primitive.json, nil) }
        if let cases = type as? any CaseIterable.Type {
            let values = stringValues(of: cases)
            if !values.isEmpty { return ("string", values) }
        }
        if type is any Collection.Type, !(type is any _DictionaryProbe.Type) { return ("array", nil) }
        return ("object", nil)
    }
}

extension ArgumentProbe {
    /// The first case of an enumeration.
    static func firstCase<Cases: CaseIterable>(of type: Cases.Type) -> Any? {
        Cases.allCases.first
    }

    /// The raw values of an enumeration of strings; empty for other enumerations.
    static func stringValues<Cases: CaseIterable>(of type: Cases.Type) -> [String] {
        Cases.allCases.compactMap { ($0 as? any RawRepresentable)?.rawValue as? String }
    }
}

/// Dictionaries, which encode as JSON objects although they are collections.
protocol _DictionaryProbe {}
extension Dictionary: _DictionaryProbe {}
