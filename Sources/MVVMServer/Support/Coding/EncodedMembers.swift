/// An encoded value and, when it is an object, where each of its top-level members' values
/// lies in the bytes: what change tracking needs to name the members that changed between
/// two encodings without parsing either.
struct EncodedMembers: Equatable {
    /// The JSON bytes (kept as an array: the store compares and splices them on every change).
    var bytes: [UInt8] = []
    /// The top-level members in key order, with the range of each value in ``bytes``; empty
    /// when the value is not an object.
    var members: [Member] = []

    /// A top-level member: its key and where its value lies (a struct, not a tuple, so that
    /// arrays of them are destroyed without the tuple's run-time metadata).
    struct Member {
        let key: String
        let range: Range<Int>
    }

    /// Whether the value is an object (an empty one has no members, but is one).
    var isObject: Bool {
        bytes.first == UInt8(ascii: "{")
    }

    /// The bytes of a member's value.
    func value(at range: Range<Int>) -> ArraySlice<UInt8> {
        bytes[range]
    }

    static func == (left: EncodedMembers, right: EncodedMembers) -> Bool {
        left.bytes == right.bytes
    }
}
