import Foundation

// Exclusivity of its two fields is not checked at run time (@exclusivity(unchecked)): an encoder
// encodes one value on one thread; a nested value is encoded with the fields saved in locals
// and restored after, so no access to a field is open while a value encodes itself.
/// The `Encoder` behind ``JSONBytesEncoder``: turns one value into an ``EncodedJSON`` tree.
///
/// One instance encodes a whole value: descending into a member saves the current position
/// (its value and coding path), encodes the member in place and restores it, so nested values
/// cost no new encoder. It is also its own single-value container, as Foundation's is.
final class JSONTreeEncoder: Encoder, SingleValueEncodingContainer {
    /// What has been encoded at the current position, `nil` while nothing has.
    @exclusivity(unchecked) var storage: EncodedJSON?
    /// The coding path of the current position (`nil` at the top level).
    @exclusivity(unchecked) var pathNode: CodingPathNode?

    init(pathNode: CodingPathNode?) {
        self.pathNode = pathNode
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(of: pathNode) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodedObject
        if case .object(let existing) = storage {
            object = existing
        } else {
            object = EncodedObject()
            storage = .object(object)
        }
        return KeyedEncodingContainer(JSONTreeKeyedEncodingContainer(encoder: self, object: object, pathNode: pathNode))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodedArray
        if case .array(let existing) = storage {
            array = existing
        } else {
            array = EncodedArray()
            storage = .array(array)
        }
        return JSONTreeUnkeyedEncodingContainer(encoder: self, array: array, pathNode: pathNode)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: Encoding values

    /// The tree of a top-level value, or `nil` when it encoded nothing.
    func encodeTopLevel<T: Encodable>(_ value: T) throws -> EncodedJSON? {
        if let scalar = try Self.scalarValue(value, under: nil, key: .none) { return scalar }
        try value.encode(to: self)
        return storage
    }

    /// The tree of `value` placed under `parent` at `key`; `{}` when it encodes nothing, as
    /// Foundation writes it.
    func encodeValue<T: Encodable>(_ value: T, under parent: CodingPathNode?, key: PendingCodingKey) throws -> EncodedJSON {
        if let scalar = try Self.scalarValue(value, under: parent, key: key) { return scalar }
        let savedStorage = storage
        let savedPathNode = pathNode
        storage = nil
        if let codingKey = key.codingKey {
            pathNode = CodingPathNode(parent: parent, key: codingKey)
        } else {
            pathNode = parent
        }
        defer {
            storage = savedStorage
            pathNode = savedPathNode
        }
        try value.encode(to: self)
        return storage ?? .object(EncodedObject())
    }

    /// The tree of `value` when it is a type written without asking it to encode itself: the
    /// standard scalars (checked by type, no dynamic cast unless the type matches) and the types
    /// Foundation special-cases; `nil` for any other type.
    static func scalarValue<T: Encodable>(_ value: T, under parent: CodingPathNode?, key: PendingCodingKey) throws -> EncodedJSON? {
        if T.self == String.self, let value = value as? String { return .string(value) }
        if T.self == Int.self, let value = value as? Int { return .int(Int64(value)) }
        if T.self == Bool.self, let value = value as? Bool { return .bool(value) }
        if T.self == Double.self, let value = value as? Double { return try Self.number(value, at: parent, key) }
        if T.self == Float.self, let value = value as? Float { return try Self.number(value, at: parent, key) }
        if T.self == Int64.self, let value = value as? Int64 { return .int(value) }
        if T.self == Int32.self, let value = value as? Int32 { return .int(Int64(value)) }
        if T.self == Int16.self, let value = value as? Int16 { return .int(Int64(value)) }
        if T.self == Int8.self, let value = value as? Int8 { return .int(Int64(value)) }
        if T.self == UInt.self, let value = value as? UInt { return .uint(UInt64(value)) }
        if T.self == UInt64.self, let value = value as? UInt64 { return .uint(value) }
        if T.self == UInt32.self, let value = value as? UInt32 { return .uint(UInt64(value)) }
        if T.self == UInt16.self, let value = value as? UInt16 { return .uint(UInt64(value)) }
        if T.self == UInt8.self, let value = value as? UInt8 { return .uint(UInt64(value)) }
        if T.self == Date.self, let value = value as? Date { return .double(value.timeIntervalSinceReferenceDate) }
        if T.self == Data.self, let value = value as? Data { return .string(value.base64EncodedString()) }
        if T.self == URL.self, let value = value as? URL { return .string(value.absoluteString) }
        if T.self == Decimal.self, let value = value as? Decimal { return .number(value.description) }
        if T.self == Int128.self, let value = value as? Int128 { return .number(value.description) }
        if T.self == UInt128.self, let value = value as? UInt128 { return .number(value.description) }
        return nil
    }

    /// A finite Double as a number; a NaN or an infinity throws, with the value's coding path.
    static func number(_ value: Double, at parent: CodingPathNode?, _ key: PendingCodingKey) throws -> EncodedJSON {
        guard value.isFinite else { throw nonConformingFloat(value, at: parent, key) }
        return .double(value)
    }

    /// A finite Float as a number; a NaN or an infinity throws, with the value's coding path.
    static func number(_ value: Float, at parent: CodingPathNode?, _ key: PendingCodingKey) throws -> EncodedJSON {
        guard value.isFinite else { throw nonConformingFloat(value, at: parent, key) }
        return .float(value)
    }

    private static func nonConformingFloat<F: BinaryFloatingPoint>(_ value: F, at parent: CodingPathNode?, _ key: PendingCodingKey) -> EncodingError {
        .invalidValue(
            value,
            .init(
                codingPath: CodingPathNode.path(of: parent, appending: key.codingKey),
                debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."
            ))
    }

    // MARK: SingleValueEncodingContainer

    func encodeNil() throws { storage = .null }
    func encode(_ value: Bool) throws { storage = .bool(value) }
    func encode(_ value: String) throws { storage = .string(value) }
    func encode(_ value: Double) throws { storage = try Self.number(value, at: pathNode, .none) }
    func encode(_ value: Float) throws { storage = try Self.number(value, at: pathNode, .none) }
    func encode(_ value: Int) throws { storage = .int(Int64(value)) }
    func encode(_ value: Int8) throws { storage = .int(Int64(value)) }
    func encode(_ value: Int16) throws { storage = .int(Int64(value)) }
    func encode(_ value: Int32) throws { storage = .int(Int64(value)) }
    func encode(_ value: Int64) throws { storage = .int(value) }
    func encode(_ value: Int128) throws { storage = .number(value.description) }
    func encode(_ value: UInt) throws { storage = .uint(UInt64(value)) }
    func encode(_ value: UInt8) throws { storage = .uint(UInt64(value)) }
    func encode(_ value: UInt16) throws { storage = .uint(UInt64(value)) }
    func encode(_ value: UInt32) throws { storage = .uint(UInt64(value)) }
    func encode(_ value: UInt64) throws { storage = .uint(value) }
    func encode(_ value: UInt128) throws { storage = .number(value.description) }
    func encode<T: Encodable>(_ value: T) throws { storage = try encodeValue(value, under: pathNode, key: .none) }
}
