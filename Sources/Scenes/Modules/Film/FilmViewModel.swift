import MVVMServer

/// One film's details and a snapshot of its characters; `selectCharacter` opens a person.
public final class FilmViewModel: ViewModel, SnapshotProviding, RetryableViewModel {
    /// What the client reads; defined before loading (empty texts, zeros).
    public struct Output: Codable, Sendable, Equatable {
        /// SWAPI's id.
        public var id = 0
        /// The title.
        public var title = ""
        /// The episode.
        public var episode = 0
        /// The director.
        public var director = ""
        /// The producers.
        public var producer = ""
        /// The release date.
        public var releaseDate = ""
        /// The opening crawl.
        public var openingCrawl = ""
        /// How many characters appear.
        public var characterCount = 0
        /// Why loading failed, when it did.
        public var error: String?
    }

    /// The actions.
    public enum Action: ViewModelAction {
        /// Opens a character, by item `id` or by `section` and `item`.
        case selectCharacter(ItemReference)
    }

    /// No input.
    public var input = EmptyInput()
    /// The output.
    public private(set) var output = Output()
    /// The characters.
    public private(set) var snapshot = Snapshot()
    /// A character per item: `{"name": …}`.
    public static let cells = [SnapshotCell("character", content: NamedCell.self)]
    private let key: String
    private let swapi: any SwapiService
    private let coordinator: FilmCoordinator

    /// Makes the view model of film `id`.
    public init(key: String, id: Int, swapi: any SwapiService, coordinator: FilmCoordinator) {
        self.key = key
        self.swapi = swapi
        self.coordinator = coordinator
        output.id = id
    }

    /// Why loading failed.
    public var failure: String? {
        output.error
    }

    /// Loads the film and its characters' names.
    public func load() async throws {
        _ = await fetch()
    }

    /// Tries loading again.
    public func retry() async -> Bool {
        await fetch()
    }

    /// Opens the selected character.
    public func perform(_ action: Action) async throws {
        switch action {
        case .selectCharacter(let reference):
            guard let item = snapshot.item(at: reference), let id = Int(item.id) else {
                throw ActionError.itemNotFound(String(describing: reference))
            }
            try coordinator.showPerson(id: id)
        }
    }

    private func fetch() async -> Bool {
        do {
            let film = try await swapi.film(id: output.id)
            let people = try await swapi.people()
            let names = Dictionary(people.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            output = Output(
                id: film.id, title: film.title, episode: film.episode, director: film.director, producer: film.producer,
                releaseDate: film.releaseDate, openingCrawl: film.openingCrawl, characterCount: film.characterIDs.count)
            let items = film.characterIDs.map { id in
                Snapshot.Item(id: String(id), cell: "character", fields: ["name": .string(names[id] ?? "Unknown")])
            }
            snapshot = (try? Snapshot(sections: [.init(id: "characters", items: items)])) ?? Snapshot()
            return true
        } catch {
            coordinator.report(error, about: key) { output.error = $0 }
            return false
        }
    }
}

/// The film's flow controller.
public struct FilmCoordinator: AlertPresenting {
    /// The context's navigator.
    public let navigator: Navigator

    /// Pushes a person's details.
    public func showPerson(id: Int) throws {
        try navigator.push("person/\(id)")
    }
}

/// Makes the film module.
public enum FilmFactory {
    /// The scene: `film/{id}`.
    public static let scene = Scene("film", key: "film/{id}", viewModel: FilmViewModel.self, factory: SingleViewModelFactory(create))

    /// Makes the view model of the film in the key.
    public static func create(_ extras: CreationExtras) throws -> FilmViewModel {
        guard let id = extras.intParameter("id") else { throw ViewModelStoreError.unknownKey(extras.key) }
        return FilmViewModel(
            key: extras.key, id: id, swapi: extras.dependencies.swapi, coordinator: FilmCoordinator(navigator: try extras.scope.navigator()))
    }
}
