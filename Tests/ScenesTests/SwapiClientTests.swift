import Foundation
import TestSupport
import Testing

@testable import Scenes

@Suite("The SWAPI client over HTTP, against a fixture that delays and fails on demand")
struct SwapiClientTests {
    /// A client of the fixture with a test-sized policy.
    private func makeClient(
        of fixture: SwapiFixtureServer, retries: Int = 2, timeout: Duration = .seconds(5),
        deadline: Duration = .seconds(20), backoff: Duration = .milliseconds(10)
    ) -> SwapiClient {
        var policy = ApiSession.Policy()
        policy.retries = retries
        policy.timeout = timeout
        policy.deadline = deadline
        policy.backoff = backoff
        return SwapiClient(session: ApiSession(transport: URLSessionTransport(baseURL: fixture.baseURL), policy: policy))
    }

    @Test("The films list is fetched in one request and decoded into models")
    func filmsDecode() async throws {
        let fixture = try SwapiFixtureServer()
        defer { fixture.stop() }

        let films = try await makeClient(of: fixture).films()
        #expect(films.count == 9)
        let first = try #require(films.first)
        #expect(first.id == 1)
        #expect(first.title == "A New Hope")
        #expect(first.episode == 4)
        #expect(first.releaseDate == "1977-05-25")
        #expect(first.director == "George Lucas")
        #expect(first.characterIDs.prefix(3) == [1, 2, 3])
        #expect(first.trilogy == "original")
        #expect(fixture.control.requests == ["films/"])
    }

    @Test("Records fetched by id decode, with the ids taken from their URLs")
    func recordsByID() async throws {
        let fixture = try SwapiFixtureServer()
        defer { fixture.stop() }
        let client = makeClient(of: fixture)

        let film = try await client.film(id: 4)
        let person = try await client.person(id: 1)
        let planet = try await client.planet(id: 1)
        #expect(film.title == "The Phantom Menace")
        #expect(film.episode == 1)
        #expect(person.name == "Luke Skywalker")
        #expect(person.homeworldID == 1)
        #expect(person.filmIDs.contains(1))
        #expect(planet == Planet(id: 1, name: "Tatooine", climate: "arid", terrain: "desert", population: "200000"))
        #expect(fixture.control.requests == ["films/4/", "people/1/", "planets/1/"])
    }

    @Test("A transient 503 is retried and the retry succeeds")
    func retriesTransientFailure() async throws {
        let fixture = try SwapiFixtureServer()
        defer { fixture.stop() }
        fixture.control.failNext(1, status: 503)

        let films = try await makeClient(of: fixture).films()
        #expect(films.count == 9)
        #expect(fixture.control.requests == ["films/", "films/"])
    }

    @Test("A 503 that outlasts the retries fails with status 503 after retries + 1 requests")
    func retriesExhausted() async throws {
        let fixture = try SwapiFixtureServer()
        defer { fixture.stop() }
        fixture.control.failAll(status: 503)

        let error = try await #require(throws: ApiError.self) {
            try await makeClient(of: fixture, retries: 2).films()
        }
        #expect(error == .status(503))
        #expect(fixture.control.requests == ["films/", "films/", "films/"])
    }

    @Test("A 404 is not retried and maps to status 404")
    func notFoundIsNotRetried() async throws {
        let fixture = try SwapiFixtureServer()
        defer { fixture.stop() }

        let error = try await #require(throws: ApiError.self) {
            try await makeClient(of: fixture, retries: 3).film(id: 99)
        }
        #expect(error == .status(404))
        #expect(fixture.control.requests == ["films/99/"])
    }

    @Test("A 404 the fixture was told to answer is not retried either")
    func toldNotFoundIsNotRetried() async throws {
        let fixture = try SwapiFixtureServer()
        defer { fixture.stop() }
        fixture.control.failNext(3, status: 404)

        let error = try await #require(throws: ApiError.self) {
            try await makeClient(of: fixture, retries: 3).people()
        }
        #expect(error == .status(404))
        #expect(fixture.control.requests == ["people/"])
    }

    @Test("An answer slower than the timeout is cut off and retried, and ends in timedOut")
    func timeout() async throws {
        let fixture = try SwapiFixtureServer()
        defer { fixture.stop() }
        // Far longer than the three cut-off attempts (about 3.3 s, up to 5.5 s under
        // ThreadSanitizer), so that an attempt that waited for the slow answer cannot pass.
        let delay = Duration.seconds(20)
        let timeout = Duration.seconds(1)
        fixture.control.delay(delay)

        let clock = ContinuousClock()
        let start = clock.now
        let error = try await #require(throws: ApiError.self) {
            try await makeClient(of: fixture, retries: 2, timeout: timeout).films()
        }
        let elapsed = clock.now - start
        #expect(error == .timedOut)
        #expect(fixture.control.requests == ["films/", "films/", "films/"])
        #expect(elapsed >= timeout * 3, "three attempts each waited out the timeout")
        #expect(elapsed < delay, "the attempts were cut off instead of waiting for the slow answers")
    }

    @Test("A total deadline shorter than the retries ends the call with deadlineExceeded")
    func deadline() async throws {
        let fixture = try SwapiFixtureServer()
        defer { fixture.stop() }
        let delay = Duration.seconds(5)
        let timeout = Duration.milliseconds(600)
        fixture.control.delay(delay)

        let clock = ContinuousClock()
        let start = clock.now
        let error = try await #require(throws: ApiError.self) {
            try await makeClient(of: fixture, retries: 5, timeout: timeout, deadline: .milliseconds(1500), backoff: .milliseconds(50)).films()
        }
        let elapsed = clock.now - start
        #expect(error == .deadlineExceeded(lastError: ApiError.timedOut.description))
        let requests = fixture.control.requests.count
        #expect(requests >= 1 && requests < 6, "the deadline ended the call before the five retries were used")
        #expect(elapsed >= timeout, "the first attempt waited out its timeout")
        #expect(elapsed < delay, "the deadline ended the call before any slow answer came")
    }

    @Test("Malformed JSON maps to a decoding error and is not retried")
    func malformedJSON() async throws {
        let fixture = try SwapiFixtureServer()
        defer { fixture.stop() }
        fixture.control.answerMalformedJSON()

        let error = try await #require(throws: ApiError.self) {
            try await makeClient(of: fixture).films()
        }
        guard case .decoding = error else {
            Issue.record("expected a decoding error, got \(error)")
            return
        }
        #expect(!error.isTransient)
        #expect(fixture.control.requests == ["films/"])
    }

    @Test("A list split in pages is followed through its absolute next links")
    func pagination() async throws {
        let fixture = try SwapiFixtureServer()
        defer { fixture.stop() }
        fixture.control.pagePeople(size: 40)

        let people = try await makeClient(of: fixture).people()
        let embedded = try await SwapiClient.embedded().people()
        #expect(people.count == 91)
        #expect(people == embedded)
        #expect(fixture.control.requests == ["people/", "people/?page=2", "people/?page=3"])
    }

    @Test("A list read once is kept: asking again sends no request")
    func listsAreKept() async throws {
        let fixture = try SwapiFixtureServer()
        defer { fixture.stop() }
        let client = makeClient(of: fixture)

        let first = try await client.films()
        let again = try await client.films()
        let film = try await client.film(id: 2)
        #expect(first == again)
        #expect(film.title == "The Empire Strikes Back")
        #expect(fixture.control.requests == ["films/"])
    }

    @Test("A server that does not listen maps to unreachable after the retries")
    func unreachable() async throws {
        let unlistened = try TestHTTPClient.unlistenedPort()
        defer { close(unlistened.socket) }
        var policy = ApiSession.Policy()
        policy.retries = 1
        policy.backoff = .milliseconds(10)
        let url = try #require(URL(string: "http://127.0.0.1:\(unlistened.port)/api/"))
        let client = SwapiClient(session: ApiSession(transport: URLSessionTransport(baseURL: url), policy: policy))

        let error = try await #require(throws: ApiError.self) {
            try await client.films()
        }
        guard case .unreachable = error else {
            Issue.record("expected unreachable, got \(error)")
            return
        }
        #expect(error.isTransient)
    }
}
