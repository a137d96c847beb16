import Foundation
@testable import Scenes
import TestSupport
import Testing

@Suite("A SWAPI outage seen through the whole app over HTTP: the alert, then the retry")
struct SwapiOutageOverHTTPTests {
    @Test("Films that fail after their retries show the error and the modal alert; retry after recovery loads them")
    func outageThenRetry() async throws {
        let fixture = try SwapiFixtureServer()
        defer { fixture.stop() }
        fixture.control.failAll(status: 503)
        var policy = ApiSession.Policy()
        policy.retries = 1
        // Generous: the fixture answers 503 at once, and a timeout here would only mean a
        // loaded machine (the sanitizer suites run every test in parallel).
        policy.timeout = .seconds(3)
        policy.deadline = .seconds(8)
        policy.backoff = .milliseconds(10)
        let app = try await TestApplication(catalogue: StarWarsApp.catalogue(),
                                      dependencies: try StarWarsApp.dependencies(swapiURL: fixture.baseURL.absoluteString, policy: policy))
        let session = try await CurlSession(app: app)

        let failed = try await session.waitForState("films", as: FilmsViewModel.Output.self) { $0.isLoaded }
        #expect(failed.output == FilmsViewModel.Output(count: 0, total: 0, error: ApiError.status(503).description))
        #expect(fixture.control.requests == ["films/", "films/"])
        let navigation = try await session.navigation()
        #expect(navigation.stackKeys == ["films"])
        #expect(navigation.modal?.key == "alert/films")
        #expect(navigation.modal?.presentation == "modal")
        #expect(navigation.modal?.path == session.path("/scenes/alert/films"))
        let alert = try await session.state("alert/films", as: AlertViewModel.Output.self)
        #expect(alert.output.message == ApiError.status(503).description)

        fixture.control.recover()
        let retried = try await session.action("alert/films", "retry", as: AlertViewModel.Output.self)
        let after = try #require(retried.navigation)
        #expect(after.modal == nil)
        #expect(after.stackKeys == ["films"])

        let films = try await session.state("films", as: FilmsViewModel.Output.self)
        #expect(films.output == FilmsViewModel.Output(count: 9, total: 9, error: nil))
        #expect(try await session.snapshot("films").sectionIDs == ["prequel", "original", "sequel"])
        await app.stop()
    }
}
