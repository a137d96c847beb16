import Foundation

/// A readable difference between an expected and an actual value: both written as JSON with
/// sorted keys, one member per line; lines only in the expected value are marked `−`, lines
/// only in the actual one `+`, the others are indented.
enum StateDiff {
    /// The difference, or `nil` when both are written the same.
    static func between(expected: some Encodable, actual: some Encodable) -> String? {
        let old = lines(of: expected)
        let new = lines(of: actual)
        guard old != new else { return nil }
        var removed: Set<Int> = []
        var inserted: Set<Int> = []
        for change in new.difference(from: old) {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var out: [String] = []
        var oldIndex = 0
        var newIndex = 0
        while oldIndex < old.count || newIndex < new.count {
            if oldIndex < old.count, removed.contains(oldIndex) {
                out.append("− " + old[oldIndex])
                oldIndex += 1
            } else if newIndex < new.count, inserted.contains(newIndex) {
                out.append("+ " + new[newIndex])
                newIndex += 1
            } else {
                if newIndex < new.count { out.append("  " + new[newIndex]) }
                oldIndex += 1
                newIndex += 1
            }
        }
        return out.joined(separator: "\n")
    }

    private static func lines(of value: some Encodable) -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return ["<not encodable>"] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
