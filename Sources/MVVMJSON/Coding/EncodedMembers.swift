import Foundation

/// An encoded value and, when it is an object, where each of its top-level members' values
/// lies in the bytes: what change tracking needs to name the members that changed between
/// two encodings without parsing either.
package struct EncodedMembers: Equatable {
    /// The JSON bytes (kept as an array: the store compares and splices them on every change).
    package var bytes: [UInt8] = []
    /// The top-level members in key order, with the range of each value in ``bytes``; empty
    /// when the value is not an object.
    package var members: [Member] = []

    /// An empty encoding (no value yet).
    package init() {}

    /// An encoding and where its top-level members' values lie.
    package init(bytes: [UInt8], members: [Member]) {
        self.bytes = bytes
        self.members = members
    }

    /// A top-level member: its key and where its value lies (a struct, not a tuple, so that
    /// arrays of them are destroyed without the tuple's run-time metadata).
    package struct Member {
        package let key: String
        package let range: Range<Int>
    }

    /// Whether the value is an object (an empty one has no members, but is one).
    package var isObject: Bool {
        bytes.first == UInt8(ascii: "{")
    }

    /// Whether the value at `range` has the same bytes as `other`'s value at `otherRange`
    /// (compared in place, without slicing either array).
    package func hasSameValue(at range: Range<Int>, as other: EncodedMembers, at otherRange: Range<Int>) -> Bool {
        guard range.count == otherRange.count else { return false }
        guard !range.isEmpty else { return true }
        return bytes.withUnsafeBufferPointer { mine in
            other.bytes.withUnsafeBufferPointer { theirs in
                memcmp(mine.baseAddress! + range.lowerBound, theirs.baseAddress! + otherRange.lowerBound, range.count) == 0
            }
        }
    }

    package static func == (left: EncodedMembers, right: EncodedMembers) -> Bool {
        left.bytes == right.bytes
    }
}
