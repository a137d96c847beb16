import Foundation
import MVVMJSON

/// The members a client sends to change an input: parsed, or still the JSON object's bytes,
/// which a merge decodes without building the object.
package enum InputPatch: Sendable {
    /// Parsed members.
    case members([String: JSONValue])
    /// A plain JSON object's bytes (``JSONObjectBytes``).
    case object(JSONObjectBytes)

    /// The members of `body`, a JSON object: its bytes when it is a plain object, otherwise
    /// `parse(body)`, which also says why it is not an object.
    package static func of(_ body: Data, parse: (Data) throws -> [String: JSONValue]) rethrows -> InputPatch {
        if let object = JSONObjectBytes(body) { return .object(object) }
        return .members(try parse(body))
    }

    /// The members, parsed.
    package var members: [String: JSONValue] {
        switch self {
        case .members(let members): members
        case .object(let object): object.parsed
        }
    }
}

extension InputPatch: ExpressibleByDictionaryLiteral {
    /// Parsed members, written as a dictionary.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .members(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
