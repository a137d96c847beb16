import MVVMJSON

/// The actions a view model accepts, usually an enum.
///
/// An action arrives as a name and a JSON object of arguments. An enum without arguments needs
/// nothing more than `CaseIterable` (its names) and `String` raw values (its decoding):
/// ```swift
/// enum Action: String, CaseIterable, ViewModelAction { case increment, reset }
/// ```
/// With arguments, declare the cases and nothing else: the names are the cases', and each
/// case's arguments are decoded by the enum's synthesized `Decodable` conformance.
/// ```swift
/// enum Action: ViewModelAction {
///     case rename(title: String)        // {"title": "Milk"}
///     case select(ItemReference)        // {"id": "7"} or {"section": 0, "item": 2}
///     case schedule(Schedule)           // the members of a Decodable struct: {"day": …, "hour": …}
///     case refresh                      // {}
/// }
/// ```
/// Labelled values are arguments of those names. A case with one unlabelled value takes that
/// value from the whole arguments object, so an ``ItemReference`` or a `Decodable` struct of
/// arguments is sent as its own members. `GET /scenes` lists each action's arguments, found by
/// decoding the declaration once.
///
/// An action type with a decoding of its own (`init(from:)` or
/// ``init(name:arguments:)``) that does not start from an enum of coding keys lists its names
/// in ``names``.
public protocol ViewModelAction: Decodable, Sendable {
    /// The names of the actions, for the catalogue and to tell an unknown action from bad
    /// arguments. By default, the names the type's `Decodable` conformance accepts: the cases
    /// of a synthesized conformance, or of the coding keys an own `init(from:)` starts with.
    static var names: [String] { get }
    /// Makes the action called `name` (one of ``names``) from its arguments.
    /// - Throws: a `DecodingError` or ``InputError`` when the arguments do not fit.
    init(name: String, arguments: ActionArguments) throws
}

extension ViewModelAction {
    /// The names the type's `Decodable` conformance accepts: its coding keys, when its decoding
    /// starts with a keyed container of an enum of keys (as a synthesized one does); else none.
    public static var names: [String] {
        ActionNames.of(Self.self)
    }

    /// Decodes `{name: arguments}` with the type's own `Decodable` conformance. A case's one
    /// unlabelled value (`_0` to Swift) is decoded from the whole arguments object unless the
    /// client sent an `_0` of its own.
    /// - Throws: ``InputError`` naming the argument at fault.
    public init(name: String, arguments: ActionArguments) throws {
        if let probe = arguments.probe {
            self = try Self(from: ProbeDecoder(actionName: name, probe: probe))
            return
        }
        var members = arguments.members
        if members[ActionArguments.unlabelledValue] == nil {
            members[ActionArguments.unlabelledValue] = .object(arguments.members)
        }
        do {
            self = try JSONValue.object([name: .object(members)]).decode(Self.self)
        } catch let error as DecodingError {
            throw InputError(decoding: error, fallbackMember: name, dropping: 1, unwrapping: ActionArguments.unlabelledValue)
        }
    }
}

extension ViewModelAction where Self: CaseIterable {
    /// The names of the cases: a case's raw value when the type has `String` raw values, else
    /// its name as Swift spells it (without its associated values, if it has any).
    public static var names: [String] {
        allCases.map { action in
            if let raw = (action as? any RawRepresentable)?.rawValue as? String { return raw }
            return Mirror(reflecting: action).children.first?.label ?? String(describing: action)
        }
    }
}

extension ViewModelAction where Self: RawRepresentable, RawValue == String {
    /// An action without arguments, named by its raw value (`enum Action: String { case reset }`).
    public init(name: String, arguments: ActionArguments) throws {
        guard let action = Self(rawValue: name) else { throw ActionError.unknown(name) }
        self = action
    }
}

/// The JSON object of arguments sent with an action.
public struct ActionArguments: Sendable {
    /// The members as sent.
    package let members: [String: JSONValue]
    /// While the arguments of an action are being listed (``ArgumentProbe``): what notes
    /// the members asked for. `nil` for arguments a client sent.
    let probe: ArgumentProbe?

    /// The key Swift gives a case's one unlabelled value (`case select(ItemReference)`).
    static let unlabelledValue = "_0"

    /// Wraps arguments.
    package init(_ members: [String: JSONValue] = [:]) {
        self.members = members
        probe = nil
    }

    /// Arguments that note what is asked of them, and answer stand-ins.
    init(probing probe: ArgumentProbe) {
        members = [:]
        self.probe = probe
    }

    /// Decodes the whole object as a value (e.g. an ``ItemReference`` or a struct of arguments).
    /// - Throws: ``InputError`` naming the argument at fault.
    public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        if let probe {
            // An item reference names its item one of two ways: list both.
            if let reference = ItemReference.id("") as? Value {
                probe.noteItemReference()
                return reference
            }
            return try Value(from: ProbeDecoder(actionName: nil, probe: probe))
        }
        do {
            return try JSONValue.object(members).decode(type)
        } catch let error as DecodingError {
            throw InputError(decoding: error, fallbackMember: "arguments")
        }
    }

    /// Decodes one member.
    /// - Throws: ``InputError`` naming the member when it is missing or has the wrong type.
    public func value<Value: Decodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        if let probe {
            probe.note(name, type, required: true)
            return try ArgumentProbe.standIn(type)
        }
        guard let member = members[name] else { throw InputError(member: name, reason: "is required") }
        do {
            return try member.decode(type)
        } catch {
            throw InputError(member: name, reason: "has the wrong type (expected \(type))")
        }
    }
}

/// The action set of a view model that accepts none.
public enum NoAction: ViewModelAction {
    /// No names.
    public static var names: [String] { [] }

    /// Never made.
    public init(name: String, arguments: ActionArguments) throws {
        throw ActionError.unknown(name)
    }

    /// Never decodes.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "This view model has no actions."))
    }
}
