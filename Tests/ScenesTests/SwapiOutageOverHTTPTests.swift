import Foundation
import MVVMClient
import MVVMServer
import MVVMServerTesting
import Testing

@testable import Scenes

@Suite("A SWAPI outage seen through the whole app over HTTP: the alert, then the retry")
struct SwapiOutageOverHTTPTests {
    typealias Films = FilmsViewModel.Output

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
        let dependencies = try StarWarsApp.dependencies(swapiURL: fixture.baseURL.absoluteString, policy: policy)

        try await TestServer(catalogue: StarWarsApp.catalogue(), dependencies: dependencies).test(.live) { client in
            let session = try await client.createSession()
            let films = session.scene("films", input: FilmsViewModel.Input.self, output: Films.self)
            let failed = try await films.state { $0.isLoaded }
            #expect(failed.output == Films(count: 0, total: 0, error: ApiError.status(503).description))
            #expect(fixture.control.requests == ["films/", "films/"])
            let navigation = try await session.navigation { $0.modal != nil }
            #expect(navigation.stack.map(\.key) == ["films"])
            #expect(navigation.modal?.key == "alert/films")
            #expect(navigation.modal?.presentation == .modal)
            #expect(navigation.modal?.path == "/sessions/\(session.id)/scenes/alert/films")
            let alert = session.scene("alert/films", input: EmptyInput.self, output: AlertViewModel.Output.self)
            #expect(try await alert.state().output.message == ApiError.status(503).description)

            fixture.control.recover()
            let retried = try await alert.perform("retry")
            let after = try #require(retried.navigation)
            #expect(after.modal == nil)
            #expect(after.stack.map(\.key) == ["films"])

            #expect(try await films.state().output == Films(count: 9, total: 9, error: nil))
            #expect(try await films.snapshot().sections.map(\.id) == ["prequel", "original", "sequel"])
        }
    }
}
