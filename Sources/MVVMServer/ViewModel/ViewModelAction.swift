/// The actions a view model accepts, usually an enum with associated values.
///
/// An action named `select` with arguments `{"id": 2}` is decoded from `{"select": {"id": 2}}`,
/// which is how Swift's synthesized `Codable` spells `case select(id: Int)`; an action without
/// arguments, `case dismiss`, is decoded from `{"dismiss": {}}`.
public protocol ViewModelAction: Decodable, Sendable {
    /// The names of the actions, for the catalogue and to tell an unknown action from bad arguments.
    static var names: [String] { get }
}

/// The action set of a view model that accepts none.
public enum NoAction: ViewModelAction {
    /// No names.
    public static var names: [String] { [] }

    /// Never decodes.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "This view model has no actions."))
    }
}
