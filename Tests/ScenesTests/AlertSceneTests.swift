import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
@testable import Scenes
import Testing

@Suite("The alert scene: a failed service call is presented modally, with retry and dismiss")
struct AlertSceneTests {
    typealias Films = FilmsViewModel.Output
    typealias Alert = AlertViewModel.Output

    /// A session whose films failed to load, once the alert is shown.
    private func failedSession() async throws -> SceneHarness {
        let swapi = FakeSwapiService()
        await swapi.fail(.films, with: ApiError.status(503))
        let harness = try await SceneHarness(swapi: swapi, showingRoot: true)
        _ = try await harness.waitForNavigation { $0.modal != nil }
        return harness
    }

    @Test("A films load that fails presents alert/films modally above the films")
    func failurePresentsAlert() async throws {
        let harness = try await failedSession()

        let navigation = try harness.navigation()
        #expect(navigation.stackKeys == ["films"])
        let modal = try #require(navigation.modal)
        #expect(modal.key == "alert/films")
        #expect(modal.scene == "alert")
        #expect(modal.presentation == "modal")

        let alert = try await harness.state("alert/films", as: Alert.self)
        #expect(alert.output == Alert(title: "Something went wrong", message: ApiError.status(503).description, scene: "films", retries: 0))
    }

    @Test("The films that failed keep a valid output with the error visible in their state")
    func failedSceneStaysValid() async throws {
        let harness = try await failedSession()

        let films = try await harness.loaded("films", as: Films.self)
        #expect(films.output == Films(count: 0, total: 0, error: ApiError.status(503).description))
        #expect(try await harness.snapshot("films").sectionIDs.isEmpty)
    }

    @Test("Retry after the service recovers dismisses the alert and fills the films")
    func retryAfterRecovery() async throws {
        let harness = try await failedSession()
        await harness.swapi.recover()

        let navigated = try await harness.perform("retry", key: "alert/films")
        #expect(navigated)
        let navigation = try harness.navigation()
        #expect(navigation.modal == nil)
        #expect(navigation.stackKeys == ["films"])

        let films = try await harness.state("films", as: Films.self)
        #expect(films.output == Films(count: 5, total: 5, error: nil))
        #expect(try await harness.snapshot("films").sectionIDs == ["prequel", "original", "sequel"])
        #expect(await harness.swapi.count(.films) == 2)
    }

    @Test("Retry while the service still fails keeps the alert, counts the retry and refreshes the message")
    func retryStillFailing() async throws {
        let harness = try await failedSession()
        await harness.swapi.fail(.films, with: ApiError.timedOut)

        try await harness.perform("retry", key: "alert/films")
        let alert = try await harness.state("alert/films", as: Alert.self)
        #expect(alert.output.retries == 1)
        #expect(alert.output.message == ApiError.timedOut.description)
        #expect(try harness.navigation().modal?.key == "alert/films")
        #expect(try await harness.state("films", as: Films.self).output.error == ApiError.timedOut.description)
        #expect(await harness.swapi.count(.films) == 2)
    }

    @Test("Dismiss closes the alert and leaves the films with their error")
    func dismiss() async throws {
        let harness = try await failedSession()

        let navigated = try await harness.perform("dismiss", key: "alert/films")
        #expect(navigated)
        #expect(try harness.navigation().modal == nil)
        #expect(try harness.navigation().stackKeys == ["films"])
        #expect(try await harness.state("films", as: Films.self).output.error == ApiError.status(503).description)
        #expect(await harness.swapi.count(.films) == 1)
    }

    @Test("Once dismissed, the alert leaves the store")
    func dismissedAlertLeavesTheStore() async throws {
        let harness = try await failedSession()
        #expect(await harness.storeKeys().contains("alert/films"))

        try await harness.perform("dismiss", key: "alert/films")
        #expect(try harness.navigation().modal == nil)
        #expect(!(await harness.storeKeys()).contains("alert/films"))
    }

    @Test("A film that fails again after a successful retry shows its new failure in a fresh alert")
    func secondFailureShowsItsOwnMessage() async throws {
        let swapi = FakeSwapiService()
        await swapi.fail(.film, with: ApiError.status(503))
        let harness = try await SceneHarness(swapi: swapi, showingRoot: true)
        _ = try await harness.loaded("films", as: Films.self)
        try await harness.perform("select", .item(id: "2"), key: "films")
        _ = try await harness.waitForNavigation { $0.modal?.key == "alert/film/2" }
        await swapi.recover()
        try await harness.perform("retry", key: "alert/film/2")
        try await harness.context.back()
        #expect(try harness.navigation().stackKeys == ["films"])

        await swapi.fail(.film, with: ApiError.status(404))
        try await harness.perform("select", .item(id: "2"), key: "films")
        _ = try await harness.waitForNavigation { $0.modal?.key == "alert/film/2" }
        let alert = try await harness.state("alert/film/2", as: Alert.self)
        #expect(alert.output.message == ApiError.status(404).description)
        #expect(alert.output.retries == 0)
    }

    @Test("A film that fails presents alert/film/{id}, and retry fills the film")
    func filmFailure() async throws {
        let swapi = FakeSwapiService()
        await swapi.fail(.film, with: ApiError.unreachable("connection refused"))
        let harness = try await SceneHarness(swapi: swapi)

        let failed = try await harness.loaded("film/2", as: FilmViewModel.Output.self)
        #expect(failed.output.error == ApiError.unreachable("connection refused").description)
        #expect(failed.output.title == "")
        #expect(try harness.navigation().modal?.key == "alert/film/2")
        #expect(try await harness.state("alert/film/2", as: Alert.self).output.scene == "film/2")

        await swapi.recover()
        try await harness.perform("retry", key: "alert/film/2")
        #expect(try harness.navigation().modal == nil)
        let film = try await harness.state("film/2", as: FilmViewModel.Output.self)
        #expect(film.output.title == "The Empire Strikes Back")
        #expect(film.output.error == nil)
        #expect(try await harness.snapshot("film/2").itemIDs == [["1", "2", "5"]])
    }
}
