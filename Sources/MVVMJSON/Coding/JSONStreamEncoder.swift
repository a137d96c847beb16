import Foundation
import MVVMSupport

// Exclusivity of its fields is not checked at run time (@exclusivity(unchecked)): an encoder
// encodes one value on one thread; a nested value is encoded with the position's fields saved
// in locals and restored after, and no access to a field is open while a value encodes itself.
/// The `Encoder` behind ``JSONBytesEncoder``'s one pass: writes each value's bytes as it is
/// encoded, with no tree in between.
///
/// An array is written as its elements come. An object's members are written as they come,
/// each behind its key; when the object ends (the value that asked for it has encoded itself,
/// or a container below it is written to again) and its keys did not come in order, all
/// ASCII and each once, its members are written again in key order, as ``JSONBytesWriter``
/// writes a tree's object.
///
/// What one pass cannot write in order, it gives up on: a container asked for again after
/// another value or container took its place, a container written to after it ended, a nested
/// container at a key already set, `superEncoder()`, or a single value encoded twice. Then
/// ``failed`` is set, every later write throws, and ``JSONBytesEncoder`` encodes the value
/// again through ``JSONTreeEncoder``.
final class JSONStreamEncoder: Encoder, SingleValueEncodingContainer {
    /// Thrown by a write once the encoder gave up (see ``failed``).
    struct GaveUp: Error {}

    /// A container still open.
    struct Frame {
        let id: Int
        let isObject: Bool
        /// Where the container's bytes start (its `[` or `{`).
        let start: Int
        /// Where the object's members start in ``members``.
        let firstMember: Int
        /// The array's elements so far.
        var count: Int
        /// Whether the object's keys so far are all ASCII, each after the one before.
        var isInOrder: Bool
        /// The member of the enclosing object whose value this container is, if it is one.
        let memberIndex: Int?
    }

    /// A member of an open object as written: its key, and where its value lies (a struct, not
    /// a tuple: arrays of tuples are handled through the tuple's run-time metadata).
    struct Member: KeyedEntry {
        let key: String
        var valueStart: Int
        var end: Int

        mutating func takeValue(of other: Member) {
            valueStart = other.valueStart
            end = other.end
        }
    }

    /// The encoder kept by each thread between values, with the room its buffers grew to.
    private static let kept = ThreadLocalObject()

    @exclusivity(unchecked) var writer = JSONBytesWriter(capacity: 0)
    /// The open containers, the innermost last.
    @exclusivity(unchecked) var frames: [Frame] = []
    /// The members of every open object, each object's after its parent's.
    @exclusivity(unchecked) var members: [Member] = []
    /// Where an object's members are copied while they are written again in key order.
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    /// Set when one pass cannot write the value (see the type's description).
    @exclusivity(unchecked) var failed = false
    /// Whether a value is being encoded (a value's `encode(to:)` may encode another value).
    @exclusivity(unchecked) private var isBusy = false
    @exclusivity(unchecked) private var nextFrameID = 0

    // The current position: where the value being encoded goes.
    /// Its coding path (`nil` at the top level).
    @exclusivity(unchecked) var pathNode: CodingPathNode?
    /// How many frames were open when it began: frames above belong to it.
    @exclusivity(unchecked) var positionBase = 0
    /// Whether it holds a value or a container already.
    @exclusivity(unchecked) var positionWritten = false
    /// The id of the container it holds, or -1.
    @exclusivity(unchecked) var positionFrame = -1

    private init() {}

    /// Writes `value` at the end of `writer`'s bytes with the calling thread's encoder (a new
    /// one while that one is busy); `false` when it encoded nothing.
    /// - Throws: ``GaveUp`` when one pass cannot write it, and what encoding the value throws.
    static func write<T: Encodable>(_ value: T, to writer: inout JSONBytesWriter) throws -> Bool {
        var encoder = kept.address.map { Unmanaged<JSONStreamEncoder>.fromOpaque($0).takeUnretainedValue() } ?? keptEncoder()
        if encoder.isBusy { encoder = JSONStreamEncoder() }
        encoder.isBusy = true
        swap(&encoder.writer, &writer)
        defer {
            swap(&encoder.writer, &writer)
            encoder.reset()
        }
        return try encoder.encodeTopLevel(value)
    }

    /// A new encoder, kept for the calling thread.
    private static func keptEncoder() -> JSONStreamEncoder {
        let encoder = JSONStreamEncoder()
        _ = kept.keep(encoder)
        return encoder
    }

    /// The most room for frames, members and scratch bytes kept between values.
    private static let keptFrames = 64
    private static let keptMembers = 256
    private static let keptScratchBytes = 16 * 1024

    /// Ready for the next value, keeping the room its buffers grew to, up to the bounds above.
    private func reset() {
        // What a large value made the buffers grow to is not kept: a thread keeps its encoder.
        frames.removeAll(keepingCapacity: frames.capacity <= Self.keptFrames)
        members.removeAll(keepingCapacity: members.capacity <= Self.keptMembers)
        if scratch.capacity > Self.keptScratchBytes { scratch = [] }
        failed = false
        isBusy = false
        pathNode = nil
        positionBase = 0
        positionWritten = false
        positionFrame = -1
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(of: pathNode) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(JSONStreamKeyedEncodingContainer(encoder: self, frame: positionContainer(isObject: true), pathNode: pathNode))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONStreamUnkeyedEncodingContainer(encoder: self, frame: positionContainer(isObject: false), pathNode: pathNode)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The id of the position's container: the one it holds (asked for again), or a new one.
    private func positionContainer(isObject: Bool) -> Int {
        guard positionWritten else {
            positionWritten = true
            positionFrame = open(isObject: isObject, memberIndex: nil)
            return positionFrame
        }
        if let frame = frames.last(where: { $0.id == positionFrame }), frame.isObject == isObject { return positionFrame }
        failed = true
        return -1
    }

    /// Opens a container at the end of the bytes; returns its id.
    func open(isObject: Bool, memberIndex: Int?) -> Int {
        nextFrameID += 1
        frames.append(
            Frame(
                id: nextFrameID, isObject: isObject, start: writer.count, firstMember: members.count, count: 0, isInOrder: true,
                memberIndex: memberIndex))
        writer.append(byte: isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return nextFrameID
    }

    /// Makes the container `id` the innermost open one, ending those opened inside it; throws
    /// when it is not open in the current position.
    func makeInnermost(_ id: Int) throws {
        if failed { throw GaveUp() }
        while let last = frames.last, last.id != id {
            guard frames.count > positionBase + 1 else {
                failed = true
                throw GaveUp()
            }
            try closeInnermost()
        }
        guard frames.count > positionBase else {
            failed = true
            throw GaveUp()
        }
    }

    /// Writes the next member's key (after a comma but for the first) in the innermost object,
    /// and records the member, whose value the caller writes next; returns its index.
    func beginMember(_ key: String) -> Int {
        let frameIndex = frames.count - 1
        let follows = members.count > frames[frameIndex].firstMember
        if follows { writer.append(byte: UInt8(ascii: ",")) }
        let isASCII = writer.writeKey(key)
        if frames[frameIndex].isInOrder, !isASCII || (follows && !JSONBytesWriter.utf8Precedes(members[members.count - 1].key, key)) {
            frames[frameIndex].isInOrder = false
        }
        members.append(Member(key: key, valueStart: writer.count, end: writer.count))
        return members.count - 1
    }

    /// Ends the innermost container: an array's closing bracket, an object's (with its members
    /// written again in key order when they did not come in order).
    func closeInnermost() throws {
        let frame = frames.removeLast()
        let depth = frames.count + 1
        guard depth < JSONBytesWriter.maximumDepth else { throw JSONBytesWriter.TooDeeplyNested() }
        if frame.isObject {
            if !frame.isInOrder { writeInOrder(frame) }
            writer.append(byte: UInt8(ascii: "}"))
            if depth == 1, writer.topLevelMembers != nil { recordTopLevelMembers(from: frame.firstMember) }
            members.removeSubrange(frame.firstMember...)
        } else {
            writer.append(byte: UInt8(ascii: "]"))
        }
        if let memberIndex = frame.memberIndex { members[memberIndex].end = writer.count }
    }

    /// Writes the members of the object `frame` again in key order, a key set twice once with
    /// its last value, and points their records at where they are now.
    private func writeInOrder(_ frame: Frame) {
        let first = frame.firstMember
        let copyStart = frame.start + 1
        writer.moveTail(from: copyStart, into: &scratch)
        if !MemberOrder.allKeysAreASCII(members[first...]) {
            members.replaceSubrange(first..., with: MemberOrder.mergingEqualKeys(members[first...]))
        }
        members.withUnsafeMutableBufferPointer { MemberOrder.sortByKey(UnsafeMutableBufferPointer(rebasing: $0[first...])) }
        var index = first
        var kept = first
        while index < members.count {
            defer { index += 1 }
            // Of the members set with the same key, only the last one (the last after sorting) counts.
            if index + 1 < members.count, members[index + 1].key == members[index].key { continue }
            if kept > first { writer.append(byte: UInt8(ascii: ",")) }
            let member = members[index]
            _ = writer.writeKey(member.key)
            let valueStart = writer.count
            writer.append(scratch: scratch, member.valueStart - copyStart..<member.end - copyStart)
            members[kept] = Member(key: member.key, valueStart: valueStart, end: writer.count)
            kept += 1
        }
        members.removeSubrange(kept...)
    }

    /// Records the top-level object's members, from `first` in ``members``.
    private func recordTopLevelMembers(from first: Int) {
        writer.topLevelMembers?.reserveCapacity(members.count - first)
        for member in members[first...] {
            writer.topLevelMembers?.append(EncodedMembers.Member(key: member.key, range: member.valueStart..<member.end))
        }
    }
}
