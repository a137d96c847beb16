import Synchronization

/// ``SwapiService`` over an ``ApiSession``: follows SWAPI's paging, maps records to models,
/// and keeps every list it read successfully (the data set does not change while serving).
public final class SwapiClient: SwapiService {
    private let session: ApiSession
    private let cache = Mutex<(films: [Film]?, people: [Person]?, planets: [Planet]?)>((nil, nil, nil))

    /// A client over a session.
    public init(session: ApiSession) {
        self.session = session
    }

    /// A client over the embedded data set, whose first `failingFirst` requests answer 503; its
    /// latency, retries and timeouts run on `clock`.
    public static func embedded(
        latency: Duration = .zero, failingFirst: Int = 0, policy: ApiSession.Policy = .init(), clock: any Clock<Duration> = ContinuousClock()
    ) -> SwapiClient {
        SwapiClient(
            session: ApiSession(
                transport: EmbeddedSwapiTransport(latency: latency, clock: clock, failingFirst: failingFirst), policy: policy, clock: clock))
    }

    public func films() async throws -> [Film] {
        if let films = cache.withLock({ $0.films }) { return films }
        let films = try await all("films/", as: SwapiRecords.FilmRecord.self).map(\.model)
        cache.withLock { $0.films = films }
        return films
    }

    public func film(id: Int) async throws -> Film {
        if let film = cache.withLock({ $0.films?.first { $0.id == id } }) { return film }
        return try await session.get("films/\(id)/", as: SwapiRecords.FilmRecord.self).model
    }

    public func people() async throws -> [Person] {
        if let people = cache.withLock({ $0.people }) { return people }
        let people = try await all("people/", as: SwapiRecords.PersonRecord.self).map(\.model)
        cache.withLock { $0.people = people }
        return people
    }

    public func person(id: Int) async throws -> Person {
        if let person = cache.withLock({ $0.people?.first { $0.id == id } }) { return person }
        return try await session.get("people/\(id)/", as: SwapiRecords.PersonRecord.self).model
    }

    public func planets() async throws -> [Planet] {
        if let planets = cache.withLock({ $0.planets }) { return planets }
        let planets = try await all("planets/", as: SwapiRecords.PlanetRecord.self).map(\.model)
        cache.withLock { $0.planets = planets }
        return planets
    }

    public func planet(id: Int) async throws -> Planet {
        if let planet = cache.withLock({ $0.planets?.first { $0.id == id } }) { return planet }
        return try await session.get("planets/\(id)/", as: SwapiRecords.PlanetRecord.self).model
    }

    /// Every record of a list, following `next` links (at most 100 pages).
    private func all<Record: Decodable & Sendable>(_ path: String, as type: Record.Type) async throws -> [Record] {
        var records: [Record] = []
        var next: String? = path
        var pages = 0
        while let current = next, pages < 100 {
            let page = try await session.get(current, as: SwapiRecords.Page<Record>.self)
            records += page.results
            next = page.next
            pages += 1
        }
        return records
    }
}
