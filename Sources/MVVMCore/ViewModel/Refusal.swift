/// A view model's refusal of what a client sent: an input (from ``ViewModel/validate(_:)``),
/// an argument of an action, or the action as a whole (from ``ViewModel/perform(_:)``).
///
/// A refusal is answered, not published: the client gets a 422 problem that names the member
/// or the argument, and nothing changes: no new version, no event, no `error` in the state, and
/// nothing saved. Refuse before changing anything: what a view model changed before it threw
/// is published with its next change. The state's `error` is for failures of work already
/// accepted (a load, an action's later work), thrown as any other error.
public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is refused.
    public enum Subject: Equatable, Sendable {
        /// An input member, by name (a dotted path for nested members).
        case input(member: String)
        /// An argument of the action, by name.
        case argument(String)
        /// The action as a whole (`"nothing to undo"`).
        case action
    }

    /// What is refused.
    public let subject: Subject
    /// Why, as a phrase that follows the subject's name (`"must not be empty"`).
    public let reason: String

    /// Refuses the input member `member` because of `reason` (`"must not be empty"`).
    public static func input(_ member: String, _ reason: String) -> Refusal {
        Refusal(subject: .input(member: member), reason: reason)
    }

    /// Refuses the action's argument `name` because of `reason`.
    public static func argument(_ name: String, _ reason: String) -> Refusal {
        Refusal(subject: .argument(name), reason: reason)
    }

    /// Refuses the action as a whole, because of `reason` (a sentence).
    public static func action(_ reason: String) -> Refusal {
        Refusal(subject: .action, reason: reason)
    }

    /// The input member or argument refused; `nil` for the action as a whole.
    public var member: String? {
        switch subject {
        case .input(let member): member
        case .argument(let name): name
        case .action: nil
        }
    }

    /// A sentence for the client.
    public var description: String {
        switch subject {
        case .input(let member): "The input member '\(member)' \(reason)."
        case .argument(let name): "The argument '\(name)' \(reason)."
        case .action: reason
        }
    }
}
