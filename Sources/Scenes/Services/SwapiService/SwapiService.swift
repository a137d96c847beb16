/// Reads Star Wars films, people and planets (SWAPI MVVM's `SwapiService`).
///
/// Scenes depend on this protocol; the app uses ``SwapiClient`` over the embedded data set or
/// over HTTP, and tests swap in fakes.
public protocol SwapiService: Sendable {
    /// Every film.
    func films() async throws -> [Film]
    /// One film.
    func film(id: Int) async throws -> Film
    /// Every person.
    func people() async throws -> [Person]
    /// One person.
    func person(id: Int) async throws -> Person
    /// Every planet.
    func planets() async throws -> [Planet]
    /// One planet.
    func planet(id: Int) async throws -> Planet
}
