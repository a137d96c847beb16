import Foundation
import MVVMHTTP
import MVVMJSON

/// `RequestParsers.json`: the strict JSON parser of request bodies.
///
/// Properties of an accepted document: every number is finite; containers nest at most 500
/// deep; its serialization (`JSONValue.jsonData`) parses back to the same value and serializes to
/// the same bytes (canonical); Foundation reads that serialization too; encoding the value with
/// the framework's encoder (`JSONCoding`) gives it back and writes exactly the bytes of
/// Foundation's `JSONEncoder` (below Foundation's depth limit of 512, which the parser's own
/// limit reaches: see RELIABILITY.md); the framework's decoder, when it reads the serialization
/// into a JSONValue, reads the same value.
enum JSONFuzz {
    static func run(_ data: [UInt8]) throws(PropertyViolation) {
        let check = Checker(target: "json")
        guard let value = RequestParsers.json(data) else { return }
        let text = String(decoding: data.prefix(200), as: UTF8.self).debugDescription

        var depth = 0
        try walk(value, level: 0, depth: &depth, check: check, text: text)
        try check.expect(depth <= 500, "\(text) nests \(depth) deep")

        let serialized = value.jsonData
        let shown = String(decoding: serialized.prefix(200), as: UTF8.self).debugDescription
        guard let again = RequestParsers.json(Array(serialized)) else {
            throw check.fail("the serialization \(shown) of \(text) does not parse")
        }
        try check.expect(again == value, "\(text) serialized to \(shown), which parses to another value")
        try check.expect(again.jsonData == serialized, "the serialization \(shown) of \(text) is not canonical")
        try check.expect(
            (try? JSONSerialization.jsonObject(with: serialized, options: .fragmentsAllowed)) != nil,
            "Foundation cannot read the serialization \(shown)")

        // Encoders refuse containers nested 512 deep, one less than the parser takes.
        if depth < 512 {
            let encoded: JSONValue
            do {
                encoded = try JSONValue(encoding: value)
            } catch {
                throw check.fail("\(text) cannot be encoded through JSONCoding: \(error)")
            }
            try check.expect(encoded == value, "\(text) encoded through JSONCoding to another value")
            let foundation = JSONEncoder()
            foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let ours = try? JSONCoding.encode(value)
            let theirs = try? foundation.encode(value)
            try check.expect(
                ours == theirs,
                "\(text): JSONCoding wrote \(String(decoding: (ours ?? Data()).prefix(200), as: UTF8.self).debugDescription), Foundation's JSONEncoder \(String(decoding: (theirs ?? Data()).prefix(200), as: UTF8.self).debugDescription)"
            )
        }
        if let decoded = try? JSONCoding.decode(JSONValue.self, from: serialized) {
            try check.expect(decoded == value, "JSONCoding decodes \(shown) to \(decoded), not \(value)")
        }
    }

    private static func walk(_ value: JSONValue, level: Int, depth: inout Int, check: Checker, text: String) throws(PropertyViolation) {
        switch value {
        case .number(let number):
            try check.expect(number.isFinite, "\(text) holds the number \(number)")
        case .array(let elements):
            depth = max(depth, level + 1)
            for element in elements { try walk(element, level: level + 1, depth: &depth, check: check, text: text) }
        case .object(let members):
            depth = max(depth, level + 1)
            for member in members.values { try walk(member, level: level + 1, depth: &depth, check: check, text: text) }
        case .null, .bool, .integer, .string:
            break
        }
    }
}
