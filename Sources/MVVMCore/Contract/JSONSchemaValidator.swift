import Foundation
import MVVMJSON

/// Checks a JSON value against a schema of the subset the framework writes: `type`,
/// `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`, `oneOf`,
/// `anyOf`, `allOf`, `minimum` and `$ref` to `#/components/schemas/…`.
package struct JSONSchemaValidator: Sendable {
    /// The schemas `$ref` names, by component name.
    package let components: [String: JSONValue]

    /// A validator that resolves references among `components`.
    package init(components: [String: JSONValue]) {
        self.components = components
    }

    /// A place where a value does not fit its schema.
    package struct Mismatch: Error, Equatable, CustomStringConvertible {
        /// The path of the member at fault, as a JSON Pointer (`/output/films/0/title`).
        package let path: String
        /// What is wrong there.
        package let reason: String

        package var description: String { "\(path.isEmpty ? "/" : path): \(reason)" }
    }

    /// The first place where `value` does not fit `schema`; `nil` when it fits.
    package func mismatch(of value: JSONValue, against schema: JSONValue, at path: String = "") -> Mismatch? {
        guard case .object(let rules) = schema else {
            if case .bool(false) = schema { return Mismatch(path: path, reason: "no value is allowed here") }
            return nil
        }
        if case .string(let reference)? = rules["$ref"] {
            let name = String(reference.split(separator: "/").last ?? "")
            guard let target = components[name] else {
                return Mismatch(path: path, reason: "the schema refers to \(reference), which is not a component")
            }
            if let mismatch = self.mismatch(of: value, against: target, at: path) { return mismatch }
        }
        if let types = rules["type"], !fits(value, types) {
            return Mismatch(path: path, reason: "is \(value.typeName), not \(describe(types))")
        }
        if case .array(let allowed)? = rules["enum"], !allowed.contains(value) {
            return Mismatch(path: path, reason: "is \(brief(value)), not one of \(allowed.map(brief).joined(separator: ", "))")
        }
        if let constant = rules["const"], constant != value {
            return Mismatch(path: path, reason: "is \(brief(value)), not \(brief(constant))")
        }
        if let minimum = rules["minimum"], let bound = number(minimum), let number = number(value), number < bound {
            return Mismatch(path: path, reason: "is below the minimum \(brief(minimum))")
        }
        if let mismatch = composite(value, rules, at: path) { return mismatch }
        if case .object(let members) = value, let mismatch = object(members, rules, at: path) { return mismatch }
        if case .array(let items) = value, let itemSchema = rules["items"] {
            for (index, item) in items.enumerated() {
                if let mismatch = self.mismatch(of: item, against: itemSchema, at: "\(path)/\(index)") { return mismatch }
            }
        }
        return nil
    }

    private func composite(_ value: JSONValue, _ rules: [String: JSONValue], at path: String) -> Mismatch? {
        if case .array(let all)? = rules["allOf"] {
            for schema in all { if let mismatch = mismatch(of: value, against: schema, at: path) { return mismatch } }
        }
        if case .array(let any)? = rules["anyOf"] {
            let mismatches = any.map { mismatch(of: value, against: $0, at: path) }
            if !mismatches.contains(where: { $0 == nil }) { return closest(mismatches, path: path, of: "anyOf") }
        }
        if case .array(let one)? = rules["oneOf"] {
            let mismatches = one.map { mismatch(of: value, against: $0, at: path) }
            let fitting = mismatches.filter { $0 == nil }.count
            if fitting == 0 { return closest(mismatches, path: path, of: "oneOf") }
            if fitting > 1 { return Mismatch(path: path, reason: "fits \(fitting) of the oneOf choices, not exactly one") }
        }
        return nil
    }

    /// The mismatch deepest into the value among the choices': the choice the value meant.
    private func closest(_ mismatches: [Mismatch?], path: String, of keyword: String) -> Mismatch {
        let deepest = mismatches.compactMap { $0 }.max { $0.path.count < $1.path.count }
        guard let deepest, deepest.path != path else { return Mismatch(path: path, reason: "fits none of the \(keyword) choices") }
        return deepest
    }

    private func object(_ members: [String: JSONValue], _ rules: [String: JSONValue], at path: String) -> Mismatch? {
        if case .array(let required)? = rules["required"] {
            for case .string(let name) in required where members[name] == nil {
                return Mismatch(path: "\(path)/\(escaped(name))", reason: "is required but missing")
            }
        }
        let properties = rules["properties"]?.objectValue ?? [:]
        for name in members.keys.sorted() {
            let memberPath = "\(path)/\(escaped(name))"
            guard let member = members[name] else { continue }
            if let schema = properties[name] {
                if let mismatch = mismatch(of: member, against: schema, at: memberPath) { return mismatch }
            } else if let additional = rules["additionalProperties"] {
                if case .bool(false) = additional { return Mismatch(path: memberPath, reason: "is not a member the schema allows") }
                if let mismatch = mismatch(of: member, against: additional, at: memberPath) { return mismatch }
            }
        }
        return nil
    }

    private func fits(_ value: JSONValue, _ types: JSONValue) -> Bool {
        switch types {
        case .string(let type): fits(value, type)
        case .array(let choices): choices.contains { if case .string(let type) = $0 { fits(value, type) } else { false } }
        default: true
        }
    }

    private func fits(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): true
        case ("integer", .integer), ("number", .integer), ("number", .number): true
        case ("integer", .number(let number)): number.rounded() == number
        default: false
        }
    }

    private func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .number(let number): number
        default: nil
        }
    }

    private func describe(_ types: JSONValue) -> String {
        switch types {
        case .string(let type): type
        case .array(let choices): choices.map(brief).joined(separator: " or ")
        default: brief(types)
        }
    }

    private func brief(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): string.count > 40 ? "\"\(string.prefix(40))…\"" : "\"\(string)\""
        case .integer(let integer): String(integer)
        case .number(let number): String(number)
        case .bool(let bool): String(bool)
        case .null: "null"
        case .array, .object: value.typeName
        }
    }

    /// A member name as a JSON Pointer segment.
    private func escaped(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
