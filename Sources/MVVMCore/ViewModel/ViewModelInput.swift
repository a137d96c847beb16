import MVVMJSON
import Synchronization

/// The input of a view model: Codable, comparable, and with a default value, so that a view
/// model always starts from a defined input and a client may send only the members it changes.
///
/// Its members are the JSON members its `Codable` conformance reads: the stored properties'
/// names, or the string values of its own `CodingKeys`.
public protocol ViewModelInput: Codable, Sendable, Equatable {
    /// The input before the client sent anything.
    init()
}

extension ViewModelInput {
    /// The names of the input's JSON members, in the order its decoding reads them: the keys its
    /// `init(from:)` asks for while decoding its default value's encoding (so custom coding keys,
    /// and members whose default is `nil`, are named right). Found once per type; an input whose
    /// decoding cannot read its own encoding falls back on its stored properties' names.
    package static var memberNames: [String] {
        InputMembers.names(of: Self.self) {
            (try? TopLevelKeys.of(Self())) ?? Mirror(reflecting: Self()).children.compactMap { $0.label?.trimmingPrefix("_") }.map(String.init)
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
