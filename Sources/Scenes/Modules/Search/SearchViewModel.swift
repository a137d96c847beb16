import Foundation
import MVVMServer

/// RxSwift-MVVM-PoP's search: a query in; the auto-suggestions out (people whose name
/// matches, ignoring case and diacritics), kept up to date as the query changes, latest wins.
public final class SearchViewModel: ViewModel, SnapshotProviding {
    /// What the client sets.
    public struct Input: ViewModelInput {
        /// The text typed so far.
        public var query = ""

        /// No query.
        public init() {}
    }

    /// One suggestion.
    public struct Suggestion: Codable, Sendable, Equatable {
        /// The person's id.
        public var id: Int
        /// The person's name.
        public var name: String
    }

    /// What the client reads.
    public struct Output: Codable, Sendable, Equatable {
        /// The suggestions for the current query.
        public var models: [Suggestion] = []
        /// The query the search button last submitted.
        public var submittedQuery: String?
        /// How often the search button was tapped.
        public var buttonTaps = 0
        /// Why loading the people failed, when it did.
        public var error: String?
    }

    /// The actions.
    public enum Action: ViewModelAction {
        /// The search button.
        case buttonTapped
        /// A suggestion's cell, by `section` and `item` (or item `id`).
        case cellTapped(ItemReference)
    }

    /// The input.
    public var input = Input()
    /// The output.
    public private(set) var output = Output()
    /// The suggestions as one section of cells.
    public private(set) var snapshot = Snapshot()
    /// A suggestion per item: `{"name": …}`.
    public static let cells = [SnapshotCell("suggestion", content: NamedCell.self)]
    private var people: [Person] = []
    private let swapi: any SwapiService
    private let coordinator: SearchCoordinator
    private let savedState: SavedStateHandle?

    /// Makes the view model. The taps and the submitted query are kept in `savedState`, so
    /// that they survive a restart of the server (the query, the input, is saved anyway).
    public init(swapi: any SwapiService, coordinator: SearchCoordinator, savedState: SavedStateHandle? = nil) {
        self.swapi = swapi
        self.coordinator = coordinator
        self.savedState = savedState
        output.buttonTaps = savedState?["buttonTaps", as: Int.self] ?? 0
        output.submittedQuery = savedState?["submittedQuery", as: String.self]
    }

    /// Loads the people to suggest from; a query typed meanwhile is applied once they are here.
    public func load() async throws {
        do {
            people = try await swapi.people()
            output.error = nil
        } catch {
            if error is CancellationError { return }
            output.error = String(describing: error)
        }
        inputDidChange()
    }

    /// Suggests for the new query.
    public func inputDidChange() {
        let query = input.query.trimmingCharacters(in: .whitespaces)
        output.models =
            query.isEmpty
            ? []
            : people
                .filter { $0.name.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
                .map { Suggestion(id: $0.id, name: $0.name) }
        let items = output.models.map {
            Snapshot.Item(id: String($0.id), cell: "suggestion", fields: ["id": .number(Double($0.id)), "name": .string($0.name)])
        }
        snapshot = (try? Snapshot(sections: [.init(id: "suggestions", items: items)])) ?? Snapshot()
    }

    /// Submits the query, or opens the tapped suggestion.
    public func perform(_ action: Action) async throws {
        switch action {
        case .buttonTapped:
            output.submittedQuery = input.query
            output.buttonTaps += 1
            savedState?["submittedQuery"] = output.submittedQuery
            savedState?["buttonTaps"] = output.buttonTaps
        case .cellTapped(let reference):
            guard let item = snapshot.item(at: reference), let id = Int(item.id) else {
                throw ActionError.itemNotFound(String(describing: reference))
            }
            try coordinator.showPerson(id: id)
        }
    }
}

/// The search's flow controller.
public struct SearchCoordinator: Coordinator {
    /// The context's navigator.
    public let navigator: Navigator

    /// Pushes a person's details.
    public func showPerson(id: Int) throws {
        try navigator.push("person/\(id)")
    }
}

/// Makes the search module.
public enum SearchFactory {
    /// The scene: `search`.
    public static let scene = Scene("search", key: "search", viewModel: SearchViewModel.self, factory: SingleViewModelFactory(create))

    /// Makes the view model.
    public static func create(_ extras: CreationExtras) throws -> SearchViewModel {
        SearchViewModel(
            swapi: extras.dependencies.swapi, coordinator: SearchCoordinator(navigator: try extras.scope.navigator()),
            savedState: extras.scope.savedState)
    }
}
