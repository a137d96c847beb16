import MVVMJSON

/// Where two JSON values differ, as dotted member paths (`output.count`, `items[2].title`):
/// objects are compared member by member, down to the member that differs; any other pair of
/// values, when unequal, is one difference at its path.
struct JSONDifferences {
    /// The members of an object left out of its comparison, given the expected and the actual
    /// object's members.
    var ignoredMembers: (_ expected: [String: JSONValue], _ actual: [String: JSONValue]) -> Set<String> = { _, _ in [] }
    /// Whether two arrays of one length are compared item by item (`items[2].title`); when
    /// `false`, or when their lengths differ, an array is one value.
    var comparesArrayItems = false
    /// A text that stands for another in the expected value's strings (a recorded session's id
    /// for the new one's); `nil` when strings are compared as they are.
    var renaming: (expected: String, actual: String)?

    /// The paths under `path` where `actual` differs from `expected`, sorted by member name.
    func paths(expected: JSONValue, actual: JSONValue, under path: String = "") -> [String] {
        var found: [String] = []
        collect(expected, actual, path, into: &found)
        return found
    }

    /// The path named when the values differ at their root (`path` is empty).
    private static let rootName = "answer"

    private func collect(_ expected: JSONValue, _ actual: JSONValue, _ path: String, into found: inout [String]) {
        switch (expected, actual) {
        case (.object(let expectedMembers), .object(let actualMembers)):
            let ignored = ignoredMembers(expectedMembers, actualMembers)
            for name in Set(expectedMembers.keys).union(actualMembers.keys).sorted() where !ignored.contains(name) {
                collect(expectedMembers[name] ?? .null, actualMembers[name] ?? .null, path.isEmpty ? name : path + "." + name, into: &found)
            }
        case (.array(let expectedItems), .array(let actualItems)) where comparesArrayItems && expectedItems.count == actualItems.count:
            for (index, pair) in zip(expectedItems, actualItems).enumerated() {
                collect(pair.0, pair.1, path + "[\(index)]", into: &found)
            }
        case (.string(let expectedText), .string(let actualText)):
            let renamed =
                renaming.map { $0.expected.isEmpty ? expectedText : expectedText.replacingOccurrences(of: $0.expected, with: $0.actual) }
                ?? expectedText
            if renamed != actualText { found.append(path.isEmpty ? Self.rootName : path) }
        default:
            if expected != actual { found.append(path.isEmpty ? Self.rootName : path) }
        }
    }
}
