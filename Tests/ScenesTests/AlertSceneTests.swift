import MVVMClient
import MVVMServer
import MVVMServerTesting
import Testing

@testable import Scenes

@Suite("The alert scene: a failed service call is presented modally, with retry and dismiss")
struct AlertSceneTests {
    typealias Films = FilmsViewModel.Output
    typealias Alert = AlertViewModel.Output
    typealias FilmsScene = SceneClient<FilmsViewModel.Input, Films>
    typealias AlertScene = SceneClient<EmptyInput, Alert>

    /// A new session whose films failed to load, once the alert is shown and has loaded (so
    /// that a store started on it does not see the load as a change of its first step).
    static func failedSession(_ client: MVVMClient) async throws -> (session: SessionClient, films: FilmsScene, alert: AlertScene) {
        let session = try await client.createSession()
        _ = try await session.navigation { $0.modal != nil }
        let alert = session.scene("alert/films", input: EmptyInput.self, output: Alert.self)
        _ = try await alert.state { $0.isLoaded }
        return (session, session.scene("films", input: FilmsViewModel.Input.self, output: Films.self), alert)
    }

    static func failingFilms(_ error: ApiError = .status(503)) async -> FakeSwapiService {
        let swapi = FakeSwapiService()
        await swapi.fail(.films, with: error)
        return swapi
    }

    @Test("A films load that fails presents alert/films modally above the films", arguments: TestMode.allCases)
    func failurePresentsAlert(mode: TestMode) async throws {
        try await TestServer.starWars(swapi: await Self.failingFilms()).test(mode) { client in
            let (session, _, alert) = try await Self.failedSession(client)
            let navigation = try await session.navigation()
            #expect(navigation.stack.map(\.key) == ["films"])
            let modal = try #require(navigation.modal)
            #expect(modal.key == "alert/films")
            #expect(modal.scene == "alert")
            #expect(modal.presentation == .modal)
            #expect(
                try await alert.state().output
                    == Alert(title: "Something went wrong", message: ApiError.status(503).description, scene: "films", retries: 0))
        }
    }

    @Test("The films that failed keep a valid output with the error visible in their state", arguments: TestMode.allCases)
    func failedSceneStaysValid(mode: TestMode) async throws {
        try await TestServer.starWars(swapi: await Self.failingFilms()).test(mode) { client in
            let (_, films, _) = try await Self.failedSession(client)
            let state = try await films.state { $0.isLoaded }
            #expect(state.output == Films(count: 0, total: 0, error: ApiError.status(503).description))
            #expect(try await films.snapshot().sections.isEmpty)
        }
    }

    @Test("Retry after the service recovers dismisses the alert and fills the films", arguments: TestMode.allCases)
    func retryAfterRecovery(mode: TestMode) async throws {
        let swapi = await Self.failingFilms()
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let (_, films, alert) = try await Self.failedSession(client)
            await swapi.recover()
            let store = try await SceneStore(alert)
            try await store.perform("retry", navigation: .init(stack: ["films"])) {
                $0.lifecycle = .unloading
                $0.output.retries = 1
            }
            #expect(try await films.state().output == Films(count: 5, total: 5, error: nil))
            #expect(try await films.snapshot().sections.map(\.id) == ["prequel", "original", "sequel"])
            #expect(await swapi.count(.films) == 2)
        }
    }

    @Test("Retry while the service still fails keeps the alert, counts the retry and refreshes the message", arguments: TestMode.allCases)
    func retryStillFailing(mode: TestMode) async throws {
        let swapi = await Self.failingFilms()
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let (_, films, alert) = try await Self.failedSession(client)
            await swapi.fail(.films, with: ApiError.timedOut)
            let store = try await SceneStore(alert)
            // The films fail again: the alert is presented anew, with the new message.
            try await store.perform("retry", navigation: .init(stack: ["films"], modal: "alert/films")) {
                $0.output.retries = 1
                $0.output.message = ApiError.timedOut.description
            }
            #expect(try await films.state().output.error == ApiError.timedOut.description)
            #expect(await swapi.count(.films) == 2)
            try await store.finish()
        }
    }

    @Test("Dismiss closes the alert and leaves the films with their error; the alert leaves the store", arguments: TestMode.allCases)
    func dismiss(mode: TestMode) async throws {
        let swapi = await Self.failingFilms()
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let (session, films, alert) = try await Self.failedSession(client)
            #expect(try await session.summary().entries.map(\.key).contains("alert/films"))

            let outcome = try await alert.perform("dismiss")
            #expect(outcome.navigation?.stack.map(\.key) == ["films"])
            #expect(outcome.navigation?.modal == nil)
            #expect(try await films.state().output.error == ApiError.status(503).description)
            #expect(await swapi.count(.films) == 1)
            #expect(try await !session.summary().entries.map(\.key).contains("alert/films"))
        }
    }

    @Test("A film that fails again after a successful retry shows its new failure in a fresh alert", arguments: TestMode.allCases)
    func secondFailureShowsItsOwnMessage(mode: TestMode) async throws {
        let swapi = FakeSwapiService()
        await swapi.fail(.film, with: ApiError.status(503))
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let session = try await client.createSession()
            let films = session.scene("films", input: FilmsViewModel.Input.self, output: Films.self)
            let alert = session.scene("alert/film/2", input: EmptyInput.self, output: Alert.self)
            _ = try await films.state { $0.isLoaded }
            try await films.perform("select", arguments: ["id": "2"])
            _ = try await session.navigation { $0.modal?.key == "alert/film/2" }
            await swapi.recover()
            try await alert.perform("retry")
            #expect(try await session.goBack().stack.map(\.key) == ["films"])

            await swapi.fail(.film, with: ApiError.status(404))
            try await films.perform("select", arguments: ["id": "2"])
            _ = try await session.navigation { $0.modal?.key == "alert/film/2" }
            let fresh = try await alert.state()
            #expect(fresh.output.message == ApiError.status(404).description)
            #expect(fresh.output.retries == 0)
        }
    }

    @Test("A film that fails presents alert/film/{id}, and retry fills the film", arguments: TestMode.allCases)
    func filmFailure(mode: TestMode) async throws {
        let swapi = FakeSwapiService()
        await swapi.fail(.film, with: ApiError.unreachable("connection refused"))
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let session = try await client.createSession()
            let film = session.scene("film/2", input: EmptyInput.self, output: FilmViewModel.Output.self)
            let failed = try await film.state { $0.isLoaded }
            #expect(failed.output.error == ApiError.unreachable("connection refused").description)
            #expect(failed.output.title == "")
            _ = try await session.navigation { $0.modal?.key == "alert/film/2" }
            let alert = session.scene("alert/film/2", input: EmptyInput.self, output: Alert.self)
            #expect(try await alert.state().output.scene == "film/2")

            await swapi.recover()
            let outcome = try await alert.perform("retry")
            #expect(outcome.navigation?.modal == nil)
            let loaded = try await film.state()
            #expect(loaded.output.title == "The Empire Strikes Back")
            #expect(loaded.output.error == nil)
            #expect(try await film.snapshot().itemIDs == [["1", "2", "5"]])
        }
    }
}
