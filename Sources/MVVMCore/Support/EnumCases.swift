/// The cases of an enum none of whose cases carries a value, found from the type alone.
package enum EnumCases {
    /// Every case of `Value` in declaration order, when `Value` is an enum whose cases carry no
    /// values; `nil` for any other type.
    package static func all<Value>(of type: Value.Type) -> [Value]? {
        guard let count = caseCount(of: type) else { return nil }
        // Why the casts below are sound: an enum whose cases carry no values is stored as its
        // case's index in declaration order, in the smallest integer that holds every index
        // (nothing for one case, a byte for up to 256, two bytes beyond). Every index below
        // `count` is therefore a valid value of `Value`, and only those are made.
        // `unsafeBitCast` also checks that the sizes agree.
        switch MemoryLayout<Value>.size {
        case 0 where count == 1: return [unsafeBitCast((), to: Value.self)]
        case 1 where count <= 1 << 8: return (0..<count).map { unsafeBitCast(UInt8($0), to: Value.self) }
        case 2 where count <= 1 << 16: return (0..<count).map { unsafeBitCast(UInt16($0), to: Value.self) }
        default: return nil
        }
    }

    /// The number of cases of `type` when it is an enum none of whose cases carries a value.
    ///
    /// Read from the type's metadata, laid out as the Swift ABI specifies (TypeMetadata.rst):
    /// the metadata's first word is its kind (`0x201` for an enum), the second points to the
    /// enum's descriptor, which holds the number of cases with a payload (the low 24 bits of the
    /// 32-bit word at byte 20) and the number without (the 32-bit word at byte 24). Only the
    /// metadata of a type the program already has is read, and only these fixed fields.
    private static func caseCount(of type: any Any.Type) -> Int? {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        guard metadata.load(as: UInt.self) == enumMetadataKind else { return nil }
        let descriptor = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafeRawPointer.self)
        let payloadCases = descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF
        let emptyCases = descriptor.load(fromByteOffset: 24, as: UInt32.self)
        guard payloadCases == 0, emptyCases > 0 else { return nil }
        return Int(emptyCases)
    }

    /// The kind of an enum's metadata: `MetadataKind::Enum` (1), not on the heap (`0x200`).
    private static let enumMetadataKind: UInt = 0x201
}
