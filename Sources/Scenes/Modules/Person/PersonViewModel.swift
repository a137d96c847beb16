import MVVMServer

/// One person's details; the homeworld loads from the service after the person, and the
/// state is published in between.
public final class PersonViewModel: ViewModel, RetryableViewModel {
    /// The homeworld, once loaded.
    public struct Homeworld: Codable, Sendable, Equatable {
        /// SWAPI's id.
        public var id: Int
        /// The name.
        public var name: String
        /// The climate.
        public var climate: String
        /// The terrain.
        public var terrain: String
        /// The population.
        public var population: String
    }

    /// What the client reads; defined before loading.
    public struct Output: Codable, Sendable, Equatable {
        /// SWAPI's id.
        public var id = 0
        /// The name.
        public var name = ""
        /// Height in centimetres.
        public var height = ""
        /// Mass in kilograms.
        public var mass = ""
        /// Hair colour.
        public var hairColor = ""
        /// Skin colour.
        public var skinColor = ""
        /// Eye colour.
        public var eyeColor = ""
        /// Birth year.
        public var birthYear = ""
        /// Gender.
        public var gender = ""
        /// The homeworld; `null` until it has loaded.
        public var homeworld: Homeworld?
        /// Films the person appears in (ids).
        public var films: [Int] = []
        /// Why loading failed, when it did.
        public var error: String?
    }

    /// No input.
    public var input = EmptyInput()
    /// The output.
    public private(set) var output = Output()
    private let scope: ViewModelScope
    private let swapi: any SwapiService
    private let coordinator: PersonCoordinator

    /// Makes the view model of person `id`.
    public init(id: Int, swapi: any SwapiService, scope: ViewModelScope, coordinator: PersonCoordinator) {
        self.scope = scope
        self.swapi = swapi
        self.coordinator = coordinator
        output.id = id
    }

    /// Why loading failed.
    public var failure: String? {
        output.error
    }

    /// Loads the person, publishes, then loads the homeworld.
    public func load() async throws {
        _ = await fetch()
    }

    /// Tries loading again.
    public func retry() async -> Bool {
        await fetch()
    }

    private func fetch() async -> Bool {
        do {
            let person = try await swapi.person(id: output.id)
            output = Output(
                id: person.id, name: person.name, height: person.height, mass: person.mass, hairColor: person.hairColor,
                skinColor: person.skinColor, eyeColor: person.eyeColor, birthYear: person.birthYear, gender: person.gender,
                homeworld: nil, films: person.filmIDs)
            scope.publish()
            if let planetID = person.homeworldID {
                let planet = try await swapi.planet(id: planetID)
                output.homeworld = Homeworld(
                    id: planet.id, name: planet.name, climate: planet.climate, terrain: planet.terrain, population: planet.population)
            }
            return true
        } catch {
            coordinator.report(error, about: scope.key) { output.error = $0 }
            return false
        }
    }
}

/// The person's flow controller.
public struct PersonCoordinator: AlertPresenting {
    /// The context's navigator.
    public let navigator: Navigator
}

/// Makes the person module.
public enum PersonFactory {
    /// The scene: `person/{id}`.
    public static let scene = Scene("person", key: "person/{id}", viewModel: PersonViewModel.self, factory: SingleViewModelFactory(create))

    /// Makes the view model of the person in the key.
    public static func create(_ extras: CreationExtras) throws -> PersonViewModel {
        guard let id = extras.intParameter("id") else { throw ViewModelStoreError.unknownKey(extras.key) }
        return PersonViewModel(
            id: id, swapi: extras.dependencies.swapi, scope: extras.scope, coordinator: PersonCoordinator(navigator: try extras.scope.navigator()))
    }
}
