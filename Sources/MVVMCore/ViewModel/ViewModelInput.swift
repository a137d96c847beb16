import MVVMJSON
import MVVMSupport
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
    package static var memberNames: [String] { members.ordered }

    /// ``memberNames``, also as a set.
    package static var members: InputMembers {
        InputMembers.of(Self.self) {
            (try? TopLevelKeys.of(Self())) ?? Mirror(reflecting: Self()).children.compactMap { $0.label?.trimmingPrefix("_") }.map(String.init)
        }
    }
}

/// The member names of an input type, in decoding order and as a set, reflected once per type
/// and kept process-wide (a copy shares the kept storage).
package struct InputMembers: Sendable {
    /// The names in the order the input's decoding reads them.
    package let ordered: [String]
    /// The same names, for membership tests.
    package let all: Set<String>
    /// Whether every name is ASCII (so that one equals a key exactly when their bytes do).
    package let areASCII: Bool

    private static let known = Mutex<[ObjectIdentifier: InputMembers]>([:])

    static func of(_ type: Any.Type, reflect: () -> [String]) -> InputMembers {
        if let members = known.withLock({ $0[ObjectIdentifier(type)] }) { return members }
        let names = reflect()
        let members = InputMembers(ordered: names, all: Set(names), areASCII: names.allSatisfy(\.isASCII))
        known.withLock { $0[ObjectIdentifier(type)] = members }
        return members
    }
}

/// The input of a view model that takes none.
public struct EmptyInput: ViewModelInput {
    /// Makes the empty input.
    public init() {}
}
