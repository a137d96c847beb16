/// An input or action argument the view model could not take; names the member at fault.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The member at fault (a dotted path for nested members).
    package let member: String
    /// What is wrong with it.
    package let reason: String

    /// Makes an error about a member.
    public init(member: String, reason: String) {
        self.member = member
        self.reason = reason
    }

    /// Describes a decoding failure by the member it happened at; `dropping` leading path
    /// components (the action's own name) are not part of the member's name, nor is a
    /// component named `unwrapping` right after them (a value decoded from the whole object).
    init(decoding error: DecodingError, fallbackMember: String, dropping: Int = 0, unwrapping: String? = nil) {
        func name(_ path: [any CodingKey]) -> String {
            var parts = path.dropFirst(dropping).map { $0.intValue.map(String.init) ?? $0.stringValue }[...]
            if let unwrapping, parts.first == unwrapping { parts = parts.dropFirst() }
            return parts.isEmpty ? fallbackMember : parts.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(member: name(context.codingPath), reason: "has the wrong type (expected \(type))")
        case .valueNotFound(let type, let context):
            self.init(member: name(context.codingPath), reason: "must not be null (expected \(type))")
        case .keyNotFound(let key, let context):
            self.init(member: name(context.codingPath + [key]), reason: "is required")
        case .dataCorrupted(let context):
            self.init(member: name(context.codingPath), reason: "is not valid: \(context.debugDescription)")
        @unknown default:
            self.init(member: fallbackMember, reason: "is not valid")
        }
    }

    /// `member reason`, e.g. "make has the wrong type (expected String)".
    public var description: String {
        "\(member) \(reason)"
    }
}

/// Why an action could not be performed.
public enum ActionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The view model has no action with this name.
    case unknown(String)
    /// The arguments do not fit the action.
    case invalidArguments(InputError)
    /// The action addressed an item that the snapshot does not have.
    case itemNotFound(String)

    /// A sentence for the client.
    public var description: String {
        switch self {
        case .unknown(let name): "the scene has no action '\(name)'"
        case .invalidArguments(let error): "argument \(error.description)"
        case .itemNotFound(let reference): "no item \(reference) in the snapshot"
        }
    }
}
