import Synchronization

/// The input of a view model: Codable, comparable, and with a default value, so that a view
/// model always starts from a defined input and a client may send only the members it changes.
///
/// Its members are the stored properties (their names are the JSON member names).
public protocol ViewModelInput: Codable, Sendable, Equatable {
    /// The input before the client sent anything.
    init()
}

extension ViewModelInput {
    /// The names of the input's members, read once per type from its stored properties.
    package static var memberNames: [String] {
        InputMembers.names(of: Self.self) {
            Mirror(reflecting: Self()).children.compactMap { $0.label?.trimmingPrefix("_") }.map(String.init)
        }
    }
}

/// The member names of each input type, reflected once and kept.
enum InputMembers {
    private static let known = Mutex<[ObjectIdentifier: [String]]>([:])

    static func names(of type: Any.Type, reflect: () -> [String]) -> [String] {
        if let names = known.withLock({ $0[ObjectIdentifier(type)] }) { return names }
        let names = reflect()
        known.withLock { $0[ObjectIdentifier(type)] = names }
        return names
    }
}

/// The input of a view model that takes none.
public struct EmptyInput: ViewModelInput {
    /// Makes the empty input.
    public init() {}
}
