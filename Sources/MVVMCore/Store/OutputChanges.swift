import MVVMJSON

/// Names the top-level members that differ between two encoded outputs (the `changes` of a
/// `didUpdate` event, ViewModelable's `updates`), comparing the members' bytes: the encoder
/// writes equal values as equal bytes.
enum OutputChanges {
    /// The names of the members added, removed or changed, in key order. Both encodings list
    /// their members in the writer's key order (``JSONBytesWriter/utf8Precedes(_:_:)``), each
    /// key once, so one walk through both finds them.
    static func members(from old: EncodedMembers, to new: EncodedMembers) -> [String] {
        guard old.isObject, new.isObject else { return ["output"] }
        var changed: [String] = []
        // Room for every member of the larger side: one allocation, not one per doubling.
        changed.reserveCapacity(Swift.max(old.members.count, new.members.count))
        var oldIndex = old.members.startIndex
        var newIndex = new.members.startIndex
        while oldIndex < old.members.endIndex || newIndex < new.members.endIndex {
            guard oldIndex < old.members.endIndex else {
                changed.append(new.members[newIndex].key)
                newIndex += 1
                continue
            }
            guard newIndex < new.members.endIndex else {
                changed.append(old.members[oldIndex].key)
                oldIndex += 1
                continue
            }
            let before = old.members[oldIndex]
            let after = new.members[newIndex]
            if before.key == after.key {
                if !old.hasSameValue(at: before.range, as: new, at: after.range) { changed.append(after.key) }
                oldIndex += 1
                newIndex += 1
            } else if JSONBytesWriter.utf8Precedes(before.key, after.key) {
                changed.append(before.key)
                oldIndex += 1
            } else {
                changed.append(after.key)
                newIndex += 1
            }
        }
        return changed
    }
}
