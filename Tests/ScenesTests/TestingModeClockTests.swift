import Foundation
import MVVMServer
import Scenes
import ServerTestSupport
import TestSupport
import Testing

/// The example app in testing mode: every wait of its SWAPI client (latency, backoff,
/// timeouts) reads the test clock, which a test moves over HTTP.
@Suite("The example app on the test clock", .timeLimit(.minutes(1)))
struct TestingModeClockTests {
    private static func app(latency: Duration = .zero, failingFirst: Int = 0, backoff: Duration = .milliseconds(50)) async throws -> TestApplication {
        var policy = ApiSession.Policy()
        policy.timeout = .seconds(5) + latency
        policy.backoff = backoff
        policy.deadline = policy.timeout * 3 + backoff * 3 + .seconds(1)
        let dependencies = try StarWarsApp.dependencies(latency: latency, failingFirst: failingFirst, policy: policy, clock: ManualClock())
        return try await TestApplication(catalogue: StarWarsApp.catalogue(), dependencies: dependencies) { $0.testing = true }
    }

    private static func advance(_ app: TestApplication, _ seconds: Double) async throws {
        let answer = try await app.json("POST", "/testing/clock/advance", ["seconds": seconds])
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.json["settled"] as? Bool == true)
    }

    private static func lifecycle(_ app: TestApplication, _ id: String) async throws -> String? {
        try await app.request("GET", "/sessions/\(id)/scenes/films").json["lifecycle"] as? String
    }

    @Test("With 60 s of latency, the films stay loading until the clock moves 60 s, and are loaded when that advance answers")
    func latency() async throws {
        let app = try await Self.app(latency: .seconds(60))
        let id = try await app.createSession()
        try await Self.advance(app, 59)
        #expect(try await Self.lifecycle(app, id) == "loading")
        try await Self.advance(app, 1)
        #expect(try await Self.lifecycle(app, id) == "loaded")
        await app.stop()
    }

    @Test("A failed request's 30 s backoff passes with one advance, without sleeping")
    func backoff() async throws {
        let app = try await Self.app(failingFirst: 1, backoff: .seconds(30))
        let id = try await app.createSession()
        try await Self.advance(app, 0)
        #expect(try await Self.lifecycle(app, id) == "loading", "the first attempt failed, and the retry waits 30 s")
        let clock = try await app.request("GET", "/testing/clock")
        #expect(clock.json["nextDeadline"] as? Double == 30)
        try await Self.advance(app, 30)
        #expect(try await Self.lifecycle(app, id) == "loaded")
        await app.stop()
    }
}
