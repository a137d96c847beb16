import Foundation

/// The one place where the framework configures JSON encoding and decoding.
///
/// Keys are sorted, so that two equal values always give the same bytes: change
/// tracking compares encoded outputs, and versions only move when bytes change.
public enum JSONCoding {
    /// Encodes a value to JSON with sorted keys.
    public static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Decodes a value from JSON.
    public static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try JSONDecoder().decode(type, from: data)
    }
}
