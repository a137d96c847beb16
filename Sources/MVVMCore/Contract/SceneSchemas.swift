import MVVMJSON

/// The schemas of one scene's types, as its view model's `Input`, `Output` and `Action`
/// declare them: what an app's contract builds the scene's operations from.
package struct SceneSchemas {
    /// The input, as the state document holds it.
    package let input: JSONValue
    /// The input as a request body: the same members, none required (inputs merge).
    package let inputPatch: JSONValue
    /// The output.
    package let output: JSONValue
    /// The schema of an item of each kind of cell the scene's snapshot declares, in order.
    package let cells: [(name: String, item: JSONValue)]
    /// The body of each action, its arguments, by the action's name: other members are allowed
    /// (and ignored), as the action's decoding ignores them.
    package let actionBodies: [String: JSONValue]

    /// Describes `Model`'s types with `describer`.
    package init<Model: ViewModel>(of model: Model.Type, describer: TypeDescriber) {
        input = describer.schema(of: Model.Input.self)
        inputPatch = Self.patch(of: describer.resolved(input))
        output = describer.schema(of: Model.Output.self)
        actionBodies = ActionBodies.of(Model.Action.self, describer: describer)
        let declared = (Model.self as? any SnapshotProviding.Type)?.cells ?? []
        cells = declared.map { ($0.name, $0.itemSchema(describer)) }
    }

    /// An object schema with no member required.
    private static func patch(of schema: JSONValue) -> JSONValue {
        guard case .object(var members) = schema else { return schema }
        members["required"] = nil
        return .object(members)
    }
}

/// The bodies of a view model's actions: each action's arguments object.
enum ActionBodies {
    /// By action name. For an enum with a synthesized `Decodable` conformance, each case's
    /// payload as `Codable` reads it (its labelled values by label; one unlabelled value of an
    /// object type is the whole body, `_0` for any other); for an action with a decoding of its
    /// own, the arguments its decoding asks for (``ArgumentProbe``), by their JSON types.
    static func of<Action: ViewModelAction>(_ type: Action.Type, describer: TypeDescriber) -> [String: JSONValue] {
        let names = Action.names
        guard !names.isEmpty else { return [:] }
        let payloads = casePayloads(describer.resolved(describer.schema(of: type)))
        var bodies: [String: JSONValue] = [:]
        for name in names {
            if let payload = payloads[name] {
                bodies[name] = openToOtherMembers(wholeObjectArgument(payload, describer: describer) ?? payload, describer: describer)
            } else {
                bodies[name] = probed(ArgumentProbe.arguments(of: name, in: type))
            }
        }
        return bodies
    }

    /// `body` allowing members besides its own, as an action's decoding ignores them: its own
    /// schema in place of a reference, without `additionalProperties`, in each choice of an
    /// `anyOf` or `oneOf` too.
    private static func openToOtherMembers(_ body: JSONValue, describer: TypeDescriber) -> JSONValue {
        guard case .object(var schema) = describer.resolved(body) else { return body }
        schema["additionalProperties"] = nil
        for keyword in ["anyOf", "oneOf"] {
            if case .array(let choices)? = schema[keyword] {
                schema[keyword] = .array(choices.map { openToOtherMembers($0, describer: describer) })
            }
        }
        return .object(schema)
    }

    /// The payload of each case of a `oneOf` of single-member objects (how `Codable` writes an
    /// enum with payloads); empty for any other schema.
    private static func casePayloads(_ schema: JSONValue) -> [String: JSONValue] {
        guard case .array(let choices)? = schema.objectValue?["oneOf"] else { return [:] }
        var payloads: [String: JSONValue] = [:]
        for choice in choices {
            guard let properties = choice.objectValue?["properties"]?.objectValue, properties.count == 1, let (name, payload) = properties.first
            else { return [:] }
            payloads[name] = payload
        }
        return payloads
    }

    /// The schema of a case's one unlabelled value when it is an object: the body is that
    /// object (``ViewModelAction/init(name:arguments:)``).
    private static func wholeObjectArgument(_ payload: JSONValue, describer: TypeDescriber) -> JSONValue? {
        guard let properties = payload.objectValue?["properties"]?.objectValue, properties.count == 1,
            let value = properties[ActionArguments.unlabelledValue]
        else { return nil }
        let resolved = describer.resolved(value).objectValue
        let isObject = resolved?["type"] == .string("object") || resolved?["anyOf"] != nil
        return isObject ? value : nil
    }

    /// The arguments an action's own decoding asked for, by their JSON types.
    private static func probed(_ arguments: [ActionArgument]) -> JSONValue {
        let members = arguments.map { argument -> (name: String, schema: JSONValue) in
            var schema: [String: JSONValue] = ["type": .string(argument.type)]
            if let values = argument.values { schema["enum"] = .array(values.map(JSONValue.string)) }
            return (argument.name, .object(schema))
        }
        var object = SchemaWriting.object(members, required: Set(arguments.filter(\.required).map(\.name))).objectValue ?? [:]
        object["additionalProperties"] = nil
        return .object(object)
    }
}
