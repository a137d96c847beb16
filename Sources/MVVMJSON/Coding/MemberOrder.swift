import MVVMSupport

/// An object member as the encoders hold it before writing: its key, and its value in some form.
protocol KeyedEntry {
    var key: String { get }
    /// Takes `other`'s value, keeping this member's key.
    mutating func takeValue(of other: Self)
}

extension EncodedObject.Member: KeyedEntry {
    mutating func takeValue(of other: EncodedObject.Member) {
        value = other.value
    }
}

/// The order in which the encoders write an object's members, Foundation's with `.sortedKeys`:
/// by the UTF-8 bytes of their keys, a key set twice once, with its last value.
enum MemberOrder {
    /// Whether every key is all ASCII: two ASCII strings are equal exactly when their bytes are.
    static func allKeysAreASCII<Members: Collection>(_ members: Members) -> Bool where Members.Element: KeyedEntry {
        members.allSatisfy(\.key.isASCII)
    }

    /// The members with keys that are equal as Swift strings (canonically equivalent, such as
    /// a composed and a decomposed `é`, or the Kelvin sign and `K`) merged as Foundation's
    /// dictionary merges them: the first spelling of the key, with the last value set.
    static func mergingEqualKeys<Members: Collection>(_ members: Members) -> [Members.Element] where Members.Element: KeyedEntry {
        var merged: [Members.Element] = []
        var positions: [String: Int] = [:]
        for member in members {
            if let position = positions[member.key] {
                merged[position].takeValue(of: member)
            } else {
                positions[member.key] = merged.count
                merged.append(member)
            }
        }
        return merged
    }

    /// Sorts members by the UTF-8 bytes of their keys, keeping members with the same key in the
    /// order they were set. An insertion sort for the few members of a typical struct (the
    /// standard library's generic sort costs far more at that size), `sort` above that (also
    /// stable).
    static func sortByKey<Member: KeyedEntry>(_ buffer: UnsafeMutableBufferPointer<Member>) {
        var members = buffer
        guard members.count <= 16 else {
            members.sort { JSONBytesWriter.utf8Precedes($0.key, $1.key) }
            return
        }
        guard members.count > 1 else { return }
        for unsorted in 1..<members.count {
            var index = unsorted
            while index > 0, JSONBytesWriter.utf8Precedes(members[index].key, members[index - 1].key) {
                members.swapAt(index, index - 1)
                index -= 1
            }
        }
    }
}
