import Foundation

/// Reading scalars out of a ``JSONValue``, with Foundation's errors.
extension JSONTreeDecoder {
    /// `value` as a `T` when `T` is a type read without asking it to decode itself: the
    /// standard scalars (checked by type, no dynamic cast unless the type matches) and the types
    /// Foundation special-cases; `nil` for any other type.
    static func unwrapScalar<T: Decodable>(_ type: T.Type, from value: JSONValue, under parent: CodingPathNode?, _ key: PendingCodingKey) throws -> T?
    {
        if T.self == String.self { return try unwrapString(value, under: parent, key) as? T }
        if T.self == Int.self { return try unwrapInteger(value, under: parent, key) as Int as? T }
        if T.self == Bool.self { return try unwrapBool(value, under: parent, key) as? T }
        if T.self == Double.self { return try unwrapDouble(value, under: parent, key) as? T }
        if T.self == Float.self { return try unwrapFloat(value, under: parent, key) as? T }
        if T.self == Int64.self { return try unwrapInteger(value, under: parent, key) as Int64 as? T }
        if T.self == Int32.self { return try unwrapInteger(value, under: parent, key) as Int32 as? T }
        if T.self == Int16.self { return try unwrapInteger(value, under: parent, key) as Int16 as? T }
        if T.self == Int8.self { return try unwrapInteger(value, under: parent, key) as Int8 as? T }
        if T.self == UInt.self { return try unwrapInteger(value, under: parent, key) as UInt as? T }
        if T.self == UInt64.self { return try unwrapInteger(value, under: parent, key) as UInt64 as? T }
        if T.self == UInt32.self { return try unwrapInteger(value, under: parent, key) as UInt32 as? T }
        if T.self == UInt16.self { return try unwrapInteger(value, under: parent, key) as UInt16 as? T }
        if T.self == UInt8.self { return try unwrapInteger(value, under: parent, key) as UInt8 as? T }
        if T.self == Date.self {
            return Date(timeIntervalSinceReferenceDate: try unwrapDouble(value, under: parent, key)) as? T
        }
        if T.self == Data.self {
            guard let data = Data(base64Encoded: try unwrapString(value, under: parent, key)) else {
                throw corrupted("Encountered Data is not valid Base64.", at: parent, key)
            }
            return data as? T
        }
        if T.self == URL.self {
            guard let url = URL(string: try unwrapString(value, under: parent, key)) else {
                throw corrupted("Invalid URL string.", at: parent, key)
            }
            return url as? T
        }
        if T.self == Decimal.self {
            if case .integer(let integer) = value { return Decimal(integer) as? T }
            let number = try unwrapDouble(value, under: parent, key)
            guard let decimal = Decimal(string: number.description) else { throw unrepresentable(number, as: Decimal.self, at: parent, key) }
            return decimal as? T
        }
        return nil
    }

    static func unwrapBool(_ value: JSONValue, under parent: CodingPathNode?, _ key: PendingCodingKey) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, at: parent, key) }
        return bool
    }

    static func unwrapString(_ value: JSONValue, under parent: CodingPathNode?, _ key: PendingCodingKey) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, at: parent, key) }
        return string
    }

    static func unwrapDouble(_ value: JSONValue, under parent: CodingPathNode?, _ key: PendingCodingKey) throws -> Double {
        switch value {
        case .number(let number): return number
        case .integer(let integer): return Double(integer)
        default: throw mismatch(Double.self, value, at: parent, key)
        }
    }

    /// A number in `Float`'s range; one beyond it, or so small that it would become 0, is
    /// `dataCorrupted`, as in Foundation.
    static func unwrapFloat(_ value: JSONValue, under parent: CodingPathNode?, _ key: PendingCodingKey) throws -> Float {
        let number: Double
        switch value {
        case .number(let double): number = double
        case .integer(let integer): number = Double(integer)
        default: throw mismatch(Float.self, value, at: parent, key)
        }
        let float = Float(number)
        guard float.isFinite, float != 0 || number == 0 else { throw unrepresentable(number, as: Float.self, at: parent, key) }
        return float
    }

    /// A whole number in `Integer`'s range; a fraction or a number out of range is
    /// `dataCorrupted` (see ``unrepresentable(_:as:at:_:)``), as in Foundation.
    static func unwrapInteger<Integer: FixedWidthInteger>(_ value: JSONValue, under parent: CodingPathNode?, _ key: PendingCodingKey) throws
        -> Integer
    {
        if case .integer(let whole) = value {
            guard let integer = Integer(exactly: whole) else { throw unrepresentable(Double(whole), as: Integer.self, at: parent, key) }
            return integer
        }
        guard case .number(let number) = value else { throw mismatch(Integer.self, value, at: parent, key) }
        // Through `Int64(exactly: Double)`, which the compiler inlines, rather than the generic
        // `Integer(exactly: number)`, which runs unspecialized in the standard library.
        if let whole = Int64(exactly: number), let integer = Integer(exactly: whole) { return integer }
        guard let integer = Integer(exactly: number) else { throw unrepresentable(number, as: Integer.self, at: parent, key) }
        return integer
    }

    /// The error for `value` where a `type` was expected: `valueNotFound` for `null`,
    /// `typeMismatch` for a value of another type.
    static func mismatch(_ type: Any.Type, _ value: JSONValue, at parent: CodingPathNode?, _ key: PendingCodingKey, container: String? = nil)
        -> DecodingError
    {
        let context = { (description: String) in
            DecodingError.Context(codingPath: CodingPathNode.path(of: parent, appending: key.codingKey), debugDescription: description)
        }
        if case .null = value {
            let wanted = container.map { "\($0)" } ?? "value of type \(type)"
            return .valueNotFound(type, context("Cannot get \(wanted) -- found null value instead"))
        }
        return .typeMismatch(type, context("Expected to decode \(type) but found \(value.typeDescription) instead."))
    }

    /// The error for a number the type cannot hold. Foundation's decoder reports it as its
    /// parser's error, `dataCorrupted` with an empty coding path ("The given data was not valid
    /// JSON."); so does this one, naming the member in the description.
    static func unrepresentable(_ number: Double, as type: Any.Type, at parent: CodingPathNode?, _ key: PendingCodingKey) -> DecodingError {
        let path = CodingPathNode.path(of: parent, appending: key.codingKey).map(\.stringValue).joined(separator: ".")
        return .dataCorrupted(
            .init(codingPath: [], debugDescription: "The given data was not valid JSON: the number \(number) at '\(path)' does not fit in \(type)."))
    }

    static func corrupted(_ description: String, at parent: CodingPathNode?, _ key: PendingCodingKey) -> DecodingError {
        .dataCorrupted(.init(codingPath: CodingPathNode.path(of: parent, appending: key.codingKey), debugDescription: description))
    }
}

extension JSONValue {
    /// The value's type as Foundation's decoder names it in errors.
    fileprivate var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number, .integer: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}
