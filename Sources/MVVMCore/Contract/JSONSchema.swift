import MVVMJSON

/// A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1): the description of a JSON value
/// that an app's contract (`GET /openapi.json`) gives for a Swift type.
///
/// The framework writes these from `Codable` types itself; build one by hand only for a type
/// that describes itself (``JSONSchemaDescribing``).
public struct JSONSchema: Sendable, Equatable {
    /// The schema as JSON.
    public let json: JSONValue

    /// A schema given as JSON, e.g. `.object(["type": .string("string"), "format": .string("date")])`.
    public init(json: JSONValue) {
        self.json = json
    }

    /// Any string.
    public static let string = JSONSchema(json: .object(["type": .string("string")]))
    /// Any whole number.
    public static let integer = JSONSchema(json: .object(["type": .string("integer")]))
    /// Any number.
    public static let number = JSONSchema(json: .object(["type": .string("number")]))
    /// `true` or `false`.
    public static let boolean = JSONSchema(json: .object(["type": .string("boolean")]))

    /// A string of a format, such as `date-time` or `uuid`.
    public static func string(format: String) -> JSONSchema {
        JSONSchema(json: .object(["type": .string("string"), "format": .string(format)]))
    }

    /// One of these strings.
    public static func oneOf(strings values: [String]) -> JSONSchema {
        JSONSchema(json: .object(["type": .string("string"), "enum": .array(values.map(JSONValue.string))]))
    }

    /// An array of values that each fit `items`.
    public static func array(of items: JSONSchema) -> JSONSchema {
        JSONSchema(json: .object(["type": .string("array"), "items": items.json]))
    }

    /// An object of exactly these members, the `required` ones always present.
    public static func object(_ properties: [String: JSONSchema], required: [String] = []) -> JSONSchema {
        var schema: [String: JSONValue] = [
            "type": .string("object"),
            "properties": .object(properties.mapValues(\.json)),
            "additionalProperties": .bool(false),
        ]
        if !required.isEmpty { schema["required"] = .array(required.map(JSONValue.string)) }
        return JSONSchema(json: .object(schema))
    }

    /// A value that fits exactly one of `schemas`.
    public static func oneOf(_ schemas: [JSONSchema]) -> JSONSchema {
        JSONSchema(json: .object(["oneOf": .array(schemas.map(\.json))]))
    }

    /// This schema with an example value (`examples`), which the framework also decodes the
    /// type from when it needs a value of it: give one whenever `""`, `0` or `{}` would not
    /// decode.
    public func example(_ value: JSONValue) -> JSONSchema {
        guard case .object(var members) = json else { return self }
        members["examples"] = .array([value])
        return JSONSchema(json: .object(members))
    }

    /// This schema with a description.
    public func described(_ text: String) -> JSONSchema {
        guard case .object(var members) = json else { return self }
        members["description"] = .string(text)
        return JSONSchema(json: .object(members))
    }
}

/// A type whose JSON the framework cannot find from its `Codable` conformance alone (its own
/// `init(from:)` or `encode(to:)` writes something its decoding does not show), and so
/// describes itself for the app's contract.
///
/// ```swift
/// struct Money: Codable, JSONSchemaDescribing {
///     var cents: Int
///     init(from decoder: any Decoder) throws { … }        // reads "12.50"
///     func encode(to encoder: any Encoder) throws { … }   // writes "12.50"
///     static var jsonSchema: JSONSchema { .string.described("An amount, e.g. 12.50").example(.string("12.50")) }
/// }
/// ```
public protocol JSONSchemaDescribing {
    /// The schema of the JSON the type's `Codable` conformance writes and reads.
    static var jsonSchema: JSONSchema { get }
}
