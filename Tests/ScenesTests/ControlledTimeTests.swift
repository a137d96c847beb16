import Foundation
import MVVMClient
import MVVMServer
import MVVMServerTesting
import Synchronization
import Testing

@testable import Scenes

/// A transport over the embedded data set whose first requests fail with 503.
final class FlakyTransport: ApiTransport {
    private let failuresLeft: Mutex<Int>
    private let embedded = EmbeddedSwapiTransport()
    let attempts = Atomic<Int>(0)

    init(failures: Int) {
        failuresLeft = Mutex(failures)
    }

    func fetch(_ path: String) async throws -> (status: Int, body: Data) {
        attempts.add(1, ordering: .relaxed)
        let fails = failuresLeft.withLock { left in
            defer { left = max(0, left - 1) }
            return left > 0
        }
        return fails ? (503, Data()) : try await embedded.fetch(path)
    }
}

@Suite("Time a test controls: the app's clock comes from DependencyValues")
struct ControlledTimeTests {
    typealias Films = FilmsViewModel

    @Test("A transient failure is retried after its backoff on the test clock, and not before", arguments: TestMode.allCases)
    func retryWaitsForTheClock(mode: TestMode) async throws {
        let clock = TestClock()
        let transport = FlakyTransport(failures: 1)
        var policy = ApiSession.Policy()
        policy.backoff = .seconds(30)
        policy.timeout = .seconds(3600)
        policy.deadline = .seconds(7200)
        var dependencies = DependencyValues()
        dependencies.clock = clock
        dependencies.swapi = SwapiClient(session: ApiSession(transport: transport, policy: policy, clock: clock))

        try await TestServer(catalogue: StarWarsApp.catalogue(), dependencies: dependencies).test(mode) { client in
            let films = try await client.createSession().scene("films", input: Films.Input.self, output: Films.Output.self)
            // The first attempt fails; however long the test takes in real time, the retry
            // waits for the clock to pass the backoff.
            while transport.attempts.load(ordering: .relaxed) < 1 { await Task.yield() }
            await clock.advance(by: .seconds(29))
            #expect(try await films.state().lifecycle == .loading)
            #expect(transport.attempts.load(ordering: .relaxed) == 1)

            var loaded = try await films.state()
            for _ in 0..<100 where !loaded.isLoaded {
                await clock.advance(by: .seconds(1))
                loaded = try await films.state()
            }
            #expect(loaded.output == Films.Output(count: 9, total: 9, error: nil))
            #expect(transport.attempts.load(ordering: .relaxed) == 2)
        }
    }
}
