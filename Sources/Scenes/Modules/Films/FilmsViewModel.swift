import Foundation
import MVVMServer

/// The root scene: the films, a section per trilogy, filtered by title and sorted by episode
/// or release date, as a diffable snapshot.
public final class FilmsViewModel: ViewModel, SnapshotProviding, RetryableViewModel {
    /// How films are ordered.
    public enum Sort: String, Codable, Sendable {
        /// By episode number (prequels first).
        case episode
        /// By release date (the original trilogy first).
        case releaseDate
    }

    /// What the client sets.
    public struct Input: ViewModelInput {
        /// Text matched against titles, ignoring case and diacritics.
        public var filter = ""
        /// The order.
        public var sort = Sort.episode

        /// No filter, by episode.
        public init() {}
    }

    /// What the client reads.
    public struct Output: Codable, Sendable, Equatable {
        /// Films shown.
        public var count = 0
        /// Films loaded.
        public var total = 0
        /// Why loading failed, when it did.
        public var error: String?
    }

    /// The actions.
    public enum Action: ViewModelAction {
        /// Opens a film, by item `id` or by `section` and `item`.
        case select(ItemReference)
    }

    /// The input.
    public var input = Input()
    /// The output.
    public private(set) var output = Output()
    /// The films as sections and cells.
    public private(set) var snapshot = Snapshot()
    /// A film per item.
    public static let cells = [SnapshotCell("film", content: FilmCell.self)]
    private var films: [Film] = []
    private let key: String
    private let swapi: any SwapiService
    private let coordinator: FilmsCoordinator

    /// Makes the view model.
    public init(key: String, swapi: any SwapiService, coordinator: FilmsCoordinator) {
        self.key = key
        self.swapi = swapi
        self.coordinator = coordinator
    }

    /// Loads the films; on failure keeps a valid output, shows the error and presents the alert.
    public func load() async throws {
        _ = await fetch()
    }

    /// Why loading failed.
    public var failure: String? {
        output.error
    }

    /// Tries loading again.
    public func retry() async -> Bool {
        await fetch()
    }

    /// Filters and sorts again.
    public func inputDidChange() {
        update()
    }

    /// Opens the selected film.
    public func perform(_ action: Action) async throws {
        switch action {
        case .select(let reference):
            guard let item = snapshot.item(at: reference), let id = Int(item.id) else {
                throw ActionError.itemNotFound(String(describing: reference))
            }
            try coordinator.showFilm(id: id)
        }
    }

    private func fetch() async -> Bool {
        do {
            films = try await swapi.films()
            output.error = nil
            update()
            return true
        } catch {
            coordinator.report(error, about: key) { output.error = $0 }
            return false
        }
    }

    private func update() {
        let filter = input.filter
        let cells = FilmCells.of(films)
        // Indices into `films` and `cells`: sorting them moves no film.
        var shown = Array(films.indices)
        if !filter.isEmpty {
            shown.removeAll { films[$0].title.range(of: filter, options: [.caseInsensitive, .diacriticInsensitive]) == nil }
        }
        if input.sort == .episode {
            shown.sort { films[$0].episode < films[$1].episode }
        } else {
            shown.sort { films[$0].releaseDate < films[$1].releaseDate }
        }
        // One pass: a section per trilogy, in the order the trilogies first appear.
        var trilogies: [(id: String, items: [Snapshot.Item])] = []
        for index in shown {
            let trilogy = films[index].trilogy
            if let section = trilogies.firstIndex(where: { $0.id == trilogy }) {
                trilogies[section].items.append(cells[index])
            } else {
                trilogies.append((trilogy, [cells[index]]))
            }
        }
        snapshot = (try? Snapshot(sections: trilogies.map { Snapshot.Section(id: $0.id, items: $0.items) })) ?? Snapshot()
        output.count = shown.count
        output.total = films.count
    }
}
