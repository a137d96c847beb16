import Foundation

extension JSONValue {
    /// The value parsed from JSON bytes, or `nil` when they are not one well-formed value.
    public init?(json: Data) {
        guard let value = StrictJSON.parse(json) else { return nil }
        self = value
    }

    /// The value encoded by a type's `Encodable` conformance, as the framework's coder writes it.
    public init(encoding value: some Encodable) throws {
        guard let parsed = StrictJSON.parse(try JSONCoding.encode(value)) else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "The encoder wrote malformed JSON."))
        }
        self = parsed
    }

    /// The value as compact JSON (object members in sorted order), written directly.
    public var jsonData: Data {
        var output: [UInt8] = []
        write(to: &output)
        return Data(output)
    }

    /// Decodes a `Decodable` type from this value.
    public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try JSONCoding.decode(type, from: jsonData)
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value):
            if value.rounded() == value, let whole = Int64(exactly: value) {
                output.append(contentsOf: String(whole).utf8)
            } else {
                output.append(contentsOf: value.description.utf8)
            }
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                members[key]!.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case 0x0A: output.append(contentsOf: "\\n".utf8)
            case 0x0D: output.append(contentsOf: "\\r".utf8)
            case 0x09: output.append(contentsOf: "\\t".utf8)
            case 0x00..<0x20:
                let hex = String(byte, radix: 16)
                output.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
