/// Names the top-level members that differ between two encoded outputs (the `changes` of a
/// `didUpdate` event, ViewModelable's `updates`), comparing the members' bytes: the encoder
/// writes equal values as equal bytes.
enum OutputChanges {
    static func members(from old: EncodedMembers, to new: EncodedMembers) -> [String] {
        guard old.isObject, new.isObject else { return ["output"] }
        var before: [String: Range<Int>] = [:]
        before.reserveCapacity(old.members.count)
        for member in old.members { before[member.key] = member.range }
        var changed: [String] = []
        for member in new.members {
            if let range = before.removeValue(forKey: member.key), old.value(at: range) == new.value(at: member.range) { continue }
            changed.append(member.key)
        }
        changed.append(contentsOf: before.keys)
        return changed.sorted()
    }
}
