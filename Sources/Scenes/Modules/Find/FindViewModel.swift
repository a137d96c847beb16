import MVVMServer

/// The find scene of the seed's `FindViewModelFactory`: its predicate input is bound into the
/// result scenes of the same context (`find/people`, `find/planets`).
public final class FindViewModel: ViewModel {
    /// What the client sets.
    public struct Input: ViewModelInput {
        /// The text to find.
        public var predicate = ""

        /// No predicate.
        public init() {}
    }

    /// What the client reads.
    public struct Output: Codable, Sendable, Equatable {
        /// The predicate the results follow.
        public var predicate = ""
    }

    /// The input.
    public var input = Input()
    /// The output.
    public private(set) var output = Output()
    /// The predicate, observed by the result scenes.
    public let predicate = ObservableValue("")

    /// Makes the view model.
    public init() {}

    /// Passes the predicate on.
    public func inputDidChange() {
        output.predicate = input.predicate
        predicate.value = input.predicate
    }
}
