/// One step of a coding path, linked to its parent, so that descending into a member costs
/// one small object and the full `[any CodingKey]` is only built when someone asks for it
/// (an error, or a type reading `codingPath`).
final class CodingPathNode {
    /// The step before this one, or `nil` for the first step below the top level.
    let parent: CodingPathNode?
    /// The key of this step.
    let key: any CodingKey

    init(parent: CodingPathNode?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    /// The keys from the top level down to `node` (empty when `node` is `nil`), followed by
    /// `additionalKey` when there is one.
    static func path(of node: CodingPathNode?, appending additionalKey: (any CodingKey)? = nil) -> [any CodingKey] {
        var reversed: [any CodingKey] = []
        if let additionalKey { reversed.append(additionalKey) }
        var current = node
        while let step = current {
            reversed.append(step.key)
            current = step.parent
        }
        return reversed.reversed()
    }
}

/// The coding keys the JSON coders make up themselves, spelled as Foundation spells them:
/// `Index 3` for an array element (with integer value 3) and `super` for `superEncoder()`
/// and `superDecoder()`.
struct JSONCoderKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }

    /// The key of the array element at `index`.
    init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    /// The key `superEncoder()` and `superDecoder()` use.
    static let superKey = JSONCoderKey(stringValue: "super")
}
