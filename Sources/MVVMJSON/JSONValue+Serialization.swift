import Foundation

extension JSONValue {
    /// The value parsed from JSON bytes, or `nil` when they are not one well-formed value.
    package init?(json: Data) {
        guard let value = StrictJSON.parse(json) else { return nil }
        self = value
    }

    /// The value encoded by a type's `Encodable` conformance, as the framework's coder writes it.
    package init(encoding value: some Encodable) throws {
        guard let parsed = StrictJSON.parse(try JSONCoding.encode(value)) else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "The encoder wrote malformed JSON."))
        }
        self = parsed
    }

    /// The value as compact JSON, written directly, spelled as ``JSONCoding`` spells it
    /// (object members sorted by the UTF-8 bytes of their keys).
    package var jsonData: Data {
        var writer = JSONBytesWriter()
        writer.write(self)
        return Data(writer.bytes)
    }

    /// Decodes a `Decodable` type from this value.
    package func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try JSONValueDecoder.decode(type, from: self)
    }
}

extension JSONBytesWriter {
    /// Writes an untyped JSON value.
    package mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let value): append(value ? "true" : "false")
        case .number(let value): writeDouble(value)
        case .integer(let value): writeInteger(value.magnitude, negative: value < 0)
        case .string(let value): writeString(value)
        case .array(let elements):
            append("[")
            writeSeparated(count: elements.count) { $0.write(elements[$1]) }
            append("]")
        case .object(let members):
            append("{")
            // String order is UTF-8 byte order for the NFC keys the framework writes.
            let keys = members.keys.sorted()
            writeSeparated(count: keys.count) { writer, index in
                let key = keys[index]
                writer.writeString(key)
                writer.append(":")
                if let member = members[key] { writer.write(member) }
            }
            append("}")
        }
    }

    /// Writes `value` as ``write(_:)`` does, with each member and element on a line of its
    /// own, indented by two spaces a level: for documents people read and diff.
    package mutating func writeIndented(_ value: JSONValue, depth: Int = 0) {
        func newline(_ level: Int) {
            append("\n")
            append(bytes: Array(repeating: UInt8(ascii: " "), count: 2 * level))
        }
        switch value {
        case .array(let elements) where !elements.isEmpty:
            append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { append(",") }
                newline(depth + 1)
                writeIndented(element, depth: depth + 1)
            }
            newline(depth)
            append("]")
        case .object(let members) where !members.isEmpty:
            append("{")
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { append(",") }
                newline(depth + 1)
                writeString(key)
                append(": ")
                if let member = members[key] { writeIndented(member, depth: depth + 1) }
            }
            newline(depth)
            append("}")
        default:
            write(value)
        }
    }
}
