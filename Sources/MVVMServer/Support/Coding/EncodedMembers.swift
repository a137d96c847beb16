import Foundation

/// An encoded value and, when it is an object, where each of its top-level members' values
/// lies in the bytes: what change tracking needs to name the members that changed between
/// two encodings without parsing either.
struct EncodedMembers: Equatable {
    /// The JSON bytes.
    var data = Data()
    /// The top-level members in key order, with the range of each value in ``data``; empty
    /// when the value is not an object.
    var members: [(key: String, range: Range<Int>)] = []

    /// Whether the value is an object (an empty one has no members, but is one).
    var isObject: Bool {
        data.first == UInt8(ascii: "{")
    }

    /// The bytes of a member's value.
    func value(at range: Range<Int>) -> Data.SubSequence {
        data[data.startIndex + range.lowerBound ..< data.startIndex + range.upperBound]
    }

    static func == (left: EncodedMembers, right: EncodedMembers) -> Bool {
        left.data == right.data
    }
}
