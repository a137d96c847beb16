import MVVMServer

/// What a cell that shows a name holds, beside its `id` and `cell`: a film's character, a
/// search's suggestion.
public struct NamedCell: Codable, Sendable, Equatable {
    /// The name shown.
    public var name: String
}
