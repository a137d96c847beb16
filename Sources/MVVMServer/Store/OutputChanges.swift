import Foundation

/// Names the top-level members that differ between two encoded outputs (the `changes` of a
/// `didUpdate` event, ViewModelable's `updates`).
enum OutputChanges {
    static func members(from old: Data, to new: Data) -> [String] {
        guard let before = JSONValue(json: old)?.objectValue, let after = JSONValue(json: new)?.objectValue else {
            return ["output"]
        }
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }
}
