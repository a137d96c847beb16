import Foundation

/// The one place where the framework configures JSON encoding and decoding.
///
/// Keys are sorted, so that two equal values always give the same bytes: change
/// tracking compares encoded outputs, and versions only move when bytes change.
///
/// Both directions go through Codable, with the framework's own coders: ``JSONBytesEncoder``
/// writes exactly the bytes of Foundation's `JSONEncoder` (sorted keys, slashes not escaped),
/// and ``JSONValueDecoder`` decodes with the semantics and errors of Foundation's `JSONDecoder`,
/// several times faster on the small documents view models publish on every change.
package enum JSONCoding {
    /// Encodes a value to JSON with sorted keys.
    package static func encode(_ value: some Encodable) throws -> Data {
        try JSONBytesEncoder.encodeData(value)
    }

    /// Decodes a value from JSON.
    package static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        guard let value = StrictJSON.parse(data) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The given data was not valid JSON."))
        }
        return try JSONValueDecoder.decode(type, from: value)
    }
}
