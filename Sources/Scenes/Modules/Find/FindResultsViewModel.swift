import MVVMServer

/// The results of the find scene's predicate among people or planets.
public final class FindResultsViewModel: ViewModel {
    /// What is searched.
    public enum Kind: String, Sendable {
        /// People, by name.
        case people
        /// Planets, by name.
        case planets
    }

    /// One result.
    public struct Result: Codable, Sendable, Equatable {
        /// The id.
        public var id: Int
        /// The name.
        public var name: String
    }

    /// What the client reads.
    public struct Output: Codable, Sendable, Equatable {
        /// What is searched: `people` or `planets`.
        public var kind = ""
        /// The predicate the results are for.
        public var predicate = ""
        /// How many match.
        public var count = 0
        /// The matches.
        public var results: [Result] = []
        /// Why loading failed, when it did.
        public var error: String?
    }

    /// No input: the predicate comes from the find scene.
    public var input = EmptyInput()
    /// The output.
    public private(set) var output = Output()
    private var candidates: [Result] = []
    private let kind: Kind
    private let swapi: any SwapiService

    /// Makes the results of one kind.
    public init(kind: Kind, swapi: any SwapiService) {
        self.kind = kind
        self.swapi = swapi
        output.kind = kind.rawValue
    }

    /// Loads the candidates.
    public func load() async throws {
        do {
            switch kind {
            case .people: candidates = try await swapi.people().map { Result(id: $0.id, name: $0.name) }
            case .planets: candidates = try await swapi.planets().map { Result(id: $0.id, name: $0.name) }
            }
            output.error = nil
        } catch {
            if error is CancellationError { return }
            output.error = String(describing: error)
        }
        apply(output.predicate)
    }

    /// Follows a new predicate.
    func apply(_ predicate: String) {
        output.predicate = predicate
        output.results =
            predicate.isEmpty
            ? []
            : candidates.filter {
                $0.name.range(of: predicate, options: [.caseInsensitive, .diacriticInsensitive]) != nil
            }
        output.count = output.results.count
    }
}
