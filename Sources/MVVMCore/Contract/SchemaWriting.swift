import Foundation
import MVVMJSON

/// The schemas the framework writes for the shapes and scalars of `Codable` types, as its JSON
/// encoder writes them.
enum SchemaWriting {
    /// An object of exactly these members, in order; those in `required` always present.
    static func object(_ members: [(name: String, schema: JSONValue)], required: Set<String>) -> JSONValue {
        var schema: [String: JSONValue] = [
            "type": .string("object"),
            "properties": .object(Dictionary(members.map { ($0.name, $0.schema) }) { first, _ in first }),
            "additionalProperties": .bool(false),
        ]
        let requiredNames = members.map(\.name).filter(required.contains)
        if !requiredNames.isEmpty { schema["required"] = .array(requiredNames.map(JSONValue.string)) }
        return .object(schema)
    }

    /// `schema`, or `null`: the type list gains `null` where the schema is one of a type (and its
    /// enumeration gains `null`), else `anyOf` the two.
    static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(var members) = schema, case .string(let type)? = members["type"], members["$ref"] == nil else {
            return .object(["anyOf": .array([schema, .object(["type": .string("null")])])])
        }
        members["type"] = .array([.string(type), .string("null")])
        if case .array(let values)? = members["enum"] { members["enum"] = .array(values + [.null]) }
        return .object(members)
    }

    /// The schema of a type the encoder writes as a JSON scalar, and a stand-in value of it;
    /// `nil` for any other type. `Date` is a number of seconds since 2001-01-01T00:00:00Z (the
    /// encoder's `timeIntervalSinceReferenceDate`), `Data` a base64 string.
    static func scalar(_ type: any Any.Type) -> (schema: JSONValue, standIn: Any)? {
        func typed(_ name: String, _ extra: [String: JSONValue] = [:]) -> JSONValue {
            .object(extra.merging(["type": .string(name)]) { $1 })
        }
        let unsigned: [String: JSONValue] = ["minimum": .integer(0)]
        switch type {
        case is String.Type: return (typed("string"), "")
        case is Bool.Type: return (typed("boolean"), false)
        case is Int.Type: return (typed("integer"), 0)
        case is Int8.Type: return (typed("integer"), Int8(0))
        case is Int16.Type: return (typed("integer"), Int16(0))
        case is Int32.Type: return (typed("integer"), Int32(0))
        case is Int64.Type: return (typed("integer"), Int64(0))
        case is UInt.Type: return (typed("integer", unsigned), UInt(0))
        case is UInt8.Type: return (typed("integer", unsigned), UInt8(0))
        case is UInt16.Type: return (typed("integer", unsigned), UInt16(0))
        case is UInt32.Type: return (typed("integer", unsigned), UInt32(0))
        case is UInt64.Type: return (typed("integer", unsigned), UInt64(0))
        case is Double.Type: return (typed("number"), 0.0)
        case is Float.Type: return (typed("number"), Float(0))
        case is Decimal.Type: return (typed("number"), Decimal(0))
        case is Date.Type:
            return (typed("number", ["description": .string("Seconds since 2001-01-01T00:00:00Z.")]), Date(timeIntervalSinceReferenceDate: 0))
        case is Data.Type: return (typed("string", ["contentEncoding": .string("base64")]), Data())
        case is URL.Type: return (typed("string", ["format": .string("uri")]), URL(string: "https://example.com")!)
        case is UUID.Type: return (typed("string", ["format": .string("uuid")]), UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case is JSONValue.Type: return (.object([:]), JSONValue.null)
        default: return nil
        }
    }

    /// The schema of an enum whose cases carry no values and have `String` or `Int` raw
    /// values, which `Codable` writes as the raw value; `nil` for any other type.
    static func rawValueEnumeration<Value>(_ type: Value.Type) -> (schema: JSONValue, first: Value)? {
        guard let cases = EnumCases.all(of: type), let first = cases.first, first is any RawRepresentable else { return nil }
        let raws: [Any] = cases.compactMap { ($0 as? any RawRepresentable).map { rawValue(of: $0) } }
        if let strings = raws as? [String] {
            return (.object(["type": .string("string"), "enum": .array(strings.map(JSONValue.string))]), first)
        }
        if let integers = raws as? [Int] {
            return (.object(["type": .string("integer"), "enum": .array(integers.map { .integer(Int64($0)) })]), first)
        }
        return nil
    }

    private static func rawValue<Raw: RawRepresentable>(of value: Raw) -> Any {
        value.rawValue
    }

    /// A value that fits `schema` (its first example, else as far as its first choices go):
    /// what a type that describes itself is decoded from for its stand-in.
    static func example(of schema: JSONValue) -> JSONValue {
        guard case .object(let members) = schema else { return .null }
        if case .array(let values)? = members["examples"], let first = values.first { return first }
        if case .array(let values)? = members["enum"], let first = values.first { return first }
        if let constant = members["const"] { return constant }
        for composite in ["oneOf", "anyOf", "allOf"] {
            if case .array(let choices)? = members[composite], let first = choices.first { return example(of: first) }
        }
        let type: String? =
            switch members["type"] {
            case .string(let name)?: name
            case .array(let names)?: names.first.flatMap { if case .string(let name) = $0 { name } else { nil } }
            default: nil
            }
        switch type {
        case "string": return .string("")
        case "integer": return .integer(0)
        case "number": return .number(0)
        case "boolean": return .bool(false)
        case "array": return .array([])
        case "null": return .null
        default:
            var object: [String: JSONValue] = [:]
            if case .array(let required)? = members["required"], case .object(let properties)? = members["properties"] {
                for case .string(let name) in required { object[name] = example(of: properties[name] ?? .object([:])) }
            }
            return .object(object)
        }
    }
}
