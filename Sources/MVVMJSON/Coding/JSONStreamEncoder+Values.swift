import Foundation

// Encoding values at the current position, and the encoder as its own single-value container.
extension JSONStreamEncoder {

    /// Encodes a top-level value; `false` when it encoded nothing. Throws ``GaveUp`` when one
    /// pass cannot write it.
    func encodeTopLevel<T: Encodable>(_ value: T) throws -> Bool {
        if let scalar = try JSONTreeEncoder.scalarValue(value, under: nil, key: .none) {
            try writer.write(scalar, depth: 0)
            return true
        }
        do {
            try value.encode(to: self)
            if failed { throw GaveUp() }
            while !frames.isEmpty { try closeInnermost() }
        } catch {
            if failed { throw GaveUp() }
            throw error
        }
        return positionWritten
    }

    /// Writes `value` at the end of the bytes, placed under `parent` at `key`; `{}` when it
    /// encodes nothing, as Foundation writes it.
    func encodeValue<T: Encodable>(_ value: T, under parent: CodingPathNode?, key: PendingCodingKey) throws {
        if let scalar = try JSONTreeEncoder.scalarValue(value, under: parent, key: key) {
            try writer.write(scalar, depth: frames.count)
            return
        }
        let saved = (pathNode, positionBase, positionWritten, positionFrame)
        if let codingKey = key.codingKey {
            pathNode = CodingPathNode(parent: parent, key: codingKey)
        } else {
            pathNode = parent
        }
        positionBase = frames.count
        positionWritten = false
        positionFrame = -1
        defer { (pathNode, positionBase, positionWritten, positionFrame) = saved }
        try value.encode(to: self)
        if failed { throw GaveUp() }
        while frames.count > positionBase { try closeInnermost() }
        if !positionWritten {
            guard frames.count + 1 < JSONBytesWriter.maximumDepth else { throw JSONBytesWriter.TooDeeplyNested() }
            writer.append("{}")
        }
    }

    /// Takes the position for its single value; gives up when it holds one already.
    private func claimSingleValue() throws {
        if failed { throw GaveUp() }
        guard !positionWritten else {
            failed = true
            throw GaveUp()
        }
        positionWritten = true
    }

    /// Writes a scalar as the position's single value.
    private func writeSingle(_ scalar: EncodedJSON) throws {
        try claimSingleValue()
        try writer.write(scalar, depth: frames.count)
    }

    // MARK: SingleValueEncodingContainer

    func encodeNil() throws { try writeSingle(.null) }
    func encode(_ value: Bool) throws { try writeSingle(.bool(value)) }
    func encode(_ value: String) throws { try writeSingle(.string(value)) }
    func encode(_ value: Double) throws { try writeSingle(JSONTreeEncoder.number(value, at: pathNode, .none)) }
    func encode(_ value: Float) throws { try writeSingle(JSONTreeEncoder.number(value, at: pathNode, .none)) }
    func encode(_ value: Int) throws { try writeSingle(.int(Int64(value))) }
    func encode(_ value: Int8) throws { try writeSingle(.int(Int64(value))) }
    func encode(_ value: Int16) throws { try writeSingle(.int(Int64(value))) }
    func encode(_ value: Int32) throws { try writeSingle(.int(Int64(value))) }
    func encode(_ value: Int64) throws { try writeSingle(.int(value)) }
    func encode(_ value: Int128) throws { try writeSingle(.number(value.description)) }
    func encode(_ value: UInt) throws { try writeSingle(.uint(UInt64(value))) }
    func encode(_ value: UInt8) throws { try writeSingle(.uint(UInt64(value))) }
    func encode(_ value: UInt16) throws { try writeSingle(.uint(UInt64(value))) }
    func encode(_ value: UInt32) throws { try writeSingle(.uint(UInt64(value))) }
    func encode(_ value: UInt64) throws { try writeSingle(.uint(value)) }
    func encode(_ value: UInt128) throws { try writeSingle(.number(value.description)) }

    func encode<T: Encodable>(_ value: T) throws {
        try claimSingleValue()
        try encodeValue(value, under: pathNode, key: .none)
    }
}
