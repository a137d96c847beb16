import Foundation

/// A fast `Encodable` to JSON encoder that writes the same bytes as Foundation's
/// `JSONEncoder` with `outputFormatting = [.sortedKeys, .withoutEscapingSlashes]` and the
/// default strategies (the framework's configuration, see ``JSONCoding``).
///
/// Encoding builds a light tree (``EncodedJSON``: scalars are enum cases that allocate
/// nothing, only containers box their storage), then ``JSONBytesWriter`` writes it in one pass.
/// Like Foundation it treats `Date` as its `timeIntervalSinceReferenceDate`, `Data` as a base64
/// string, `URL` as its `absoluteString` and `Decimal` as a JSON number, sorts object members
/// by the UTF-8 bytes of their keys, and throws `EncodingError.invalidValue` for a NaN or an
/// infinity and for a top-level value that encodes nothing.
package enum JSONBytesEncoder {
    /// The JSON bytes of `value`.
    package static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var writer = JSONBytesWriter(capacity: keptCapacity)
        try write(value, with: &writer)
        return kept(writer.bytes)
    }

    /// The JSON bytes of `value`, and where each top-level member's value lies in them when
    /// `value` encodes as an object (so that two encodings can be compared member by member
    /// without parsing them).
    package static func encodeMembers<T: Encodable>(_ value: T) throws -> EncodedMembers {
        var writer = JSONBytesWriter(capacity: keptCapacity)
        writer.topLevelMembers = []
        try write(value, with: &writer)
        return EncodedMembers(bytes: kept(writer.bytes), members: writer.topLevelMembers ?? [])
    }

    /// What a writer whose bytes are kept starts with: a store keeps the encoded input and
    /// output of every view model, most of them small.
    private static let keptCapacity = 64

    /// Bytes to keep: a buffer that grew well past its bytes is copied to their size.
    private static func kept(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.capacity > bytes.count + keptCapacity else { return bytes }
        return [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: bytes)
        }
    }

    private static func write<T: Encodable>(_ value: T, with writer: inout JSONBytesWriter) throws {
        if try writeInOnePass(value, with: &writer) { return }
        writer.restart()
        let encoder = JSONTreeEncoder(pathNode: nil)
        guard let tree = try encoder.encodeTopLevel(value) else { throw nothingEncoded(value) }
        do {
            try writer.write(tree, depth: 0)
        } catch {
            throw tooDeeplyNested(value)
        }
    }

    /// Writes `value` through ``JSONStreamEncoder``; `false` (and the writer left in any state)
    /// when one pass cannot write it.
    private static func writeInOnePass<T: Encodable>(_ value: T, with writer: inout JSONBytesWriter) throws -> Bool {
        do {
            guard try JSONStreamEncoder.write(value, to: &writer) else { throw nothingEncoded(value) }
            return true
        } catch is JSONStreamEncoder.GaveUp {
            return false
        } catch is JSONBytesWriter.TooDeeplyNested {
            throw tooDeeplyNested(value)
        }
    }

    /// The JSON bytes of `value` when ``JSONStreamEncoder`` can write them in one pass, `nil`
    /// when the tree encoder must (what the tests check of the two paths).
    static func encodeInOnePass<T: Encodable>(_ value: T) throws -> [UInt8]? {
        var writer = JSONBytesWriter()
        return try writeInOnePass(value, with: &writer) ? writer.bytes : nil
    }

    private static func nothingEncoded<T>(_ value: T) -> EncodingError {
        .invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
    }

    private static func tooDeeplyNested<T>(_ value: T) -> EncodingError {
        .invalidValue(value, .init(codingPath: [], debugDescription: "Unable to encode the given top-level value to JSON."))
    }

    /// The JSON bytes of `value`, as `Data`.
    package static func encodeData<T: Encodable>(_ value: T) throws -> Data {
        var writer = JSONBytesWriter()
        try write(value, with: &writer)
        return Data(writer.bytes)
    }
}

/// A value produced by encoding, before it is written: scalars are stored inline, containers
/// in a shared box so that containers handed out by the encoder can keep appending to them.
enum EncodedJSON {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case float(Float)
    case string(String)
    /// A number already spelled as JSON (a `Decimal`, an `Int128`).
    case number(String)
    case object(EncodedObject)
    case array(EncodedArray)
    /// The value a `superEncoder()` produces, read when the tree is written (as Foundation
    /// reads it when that encoder goes away); `{}` when it encoded nothing.
    case deferred(JSONTreeEncoder)
}

// Exclusivity of `members` is not checked at run time (@exclusivity(unchecked)): an object is
// filled by the one encoder that made it, on one thread, and each access is an append or a
// search whose closure does not touch the object.
/// The members of an encoded object in the order they were set; a key set twice keeps its
/// last value (the writer drops the earlier ones after sorting).
final class EncodedObject {
    /// One member as set (a struct, not a tuple: an array of tuples is destroyed element by
    /// element through the tuple's run-time metadata, at several times the cost).
    struct Member {
        let key: String
        var value: EncodedJSON
    }

    @exclusivity(unchecked) var members: [Member]

    init() {
        // Room for a typical struct's members, so that setting them does not grow the array.
        members = []
        members.reserveCapacity(8)
    }

    func set(_ value: EncodedJSON, for key: String) {
        members.append(Member(key: key, value: value))
    }

    /// The object nested at `key`: the one already there (as Foundation reuses it) or a new one.
    func nestedObject(for key: String) -> EncodedObject {
        if let existing = members.last(where: { $0.key == key }), case .object(let object) = existing.value {
            return object
        }
        let object = EncodedObject()
        set(.object(object), for: key)
        return object
    }

    /// The array nested at `key`: the one already there or a new one.
    func nestedArray(for key: String) -> EncodedArray {
        if let existing = members.last(where: { $0.key == key }), case .array(let array) = existing.value {
            return array
        }
        let array = EncodedArray()
        set(.array(array), for: key)
        return array
    }
}

// Exclusivity of `elements` is not checked at run time (@exclusivity(unchecked)): an array is
// filled by the one encoder that made it, on one thread, one append at a time.
/// The elements of an encoded array.
final class EncodedArray {
    @exclusivity(unchecked) var elements: [EncodedJSON] = []
}

/// The key under which a container is about to encode a value, kept unbuilt (an array index
/// is only spelled out as `Index n` when an error or a nested value needs the coding path).
enum PendingCodingKey {
    /// The value takes the place of the encoder's own value (a single-value container).
    case none
    case key(any CodingKey)
    case index(Int)

    var codingKey: (any CodingKey)? {
        switch self {
        case .none: nil
        case .key(let key): key
        case .index(let index): JSONCoderKey(index: index)
        }
    }
}
