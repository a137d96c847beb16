import Foundation
import MVVMClient
import MVVMServerTesting
import Testing

@Suite("SceneStore: each step asserts the state as a change of the previous one")
struct SceneStoreTests {
    typealias Counter = BoardApp.Counter
    typealias Ticker = BoardApp.Ticker

    static let server = TestServer(catalogue: BoardApp.catalogue)

    /// The counter (a new session's root) once it has loaded: it loads right after the session
    /// is made, so a store started at once could read it still loading and see the load as an
    /// unasserted change within its first step.
    static func loadedCounter(_ session: SessionClient) async throws -> SceneClient<Counter.Input, Counter.Output> {
        let counter = session.scene("counter", input: Counter.Input.self, output: Counter.Output.self)
        _ = try await counter.state { $0.isLoaded }
        return counter
    }

    @Test("Inputs and actions assert their states; their events are checked with them", arguments: TestMode.allCases)
    func exhaustiveSteps(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let session = try await client.createSession()
            let store = try await SceneStore(try await Self.loadedCounter(session))
            #expect(store.state.lifecycle == .loaded)
            try await store.setInput(members: ["step": 3]) { $0.input.step = 3 }
            try await store.perform("increment") { $0.output.count = 3 }
            try await store.perform("increment") { $0.output.count = 6 }
            try await store.perform("reset") { $0.output.count = 0 }
            try await store.finish()
        }
    }

    @Test("Work a view model launched is received as the next version", arguments: TestMode.allCases)
    func receivesLaunchedWork(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let session = try await client.createSession()
            let store = try await SceneStore(session.scene("ticker", input: Ticker.Input.self, output: Ticker.Output.self))
            // Made by the first read, the ticker loads after it.
            #expect(store.state.lifecycle == .setuped)
            try await store.receive { $0.lifecycle = .loaded }
            try await store.perform("start") { $0.output.started = true }
            try await store.receive { $0.output.ticks = 1 }
            try await store.finish(within: .milliseconds(100))
        }
    }

    @Test("An action that navigates states where to; one that navigates unasserted fails the step", arguments: TestMode.allCases)
    func navigationIsAsserted(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let session = try await client.createSession()
            let store = try await SceneStore(try await Self.loadedCounter(session))
            try await store.perform("open", navigation: .init(stack: ["counter", "board"])) { _ in }
            _ = try await session.goBack()
            try await withKnownIssue {
                try await store.perform("open") { _ in }
            } matching: { issue in
                issue.comments.map(\.rawValue).joined().contains(
                    "the step expected no navigation; the action stack [\"counter\", \"board\"], no modal.")
            }
        }
    }

    @Test("A wrong expectation fails the step with a diff of the state")
    func mismatchFails() async throws {
        try await Self.server.test(.router) { client in
            let session = try await client.createSession()
            let store = try await SceneStore(try await Self.loadedCounter(session))
            try await withKnownIssue {
                try await store.perform("increment") { $0.output.count = 2 }
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined(separator: "\n")
                return text.contains(#"−     "count" : 2"#) && text.contains(#"+     "count" : 1"#)
            }
        }
    }

    @Test("The exhaustive store fails a test that leaves a didUpdate unasserted", arguments: TestMode.allCases)
    func unassertedUpdateFails(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let session = try await client.createSession()
            let store = try await SceneStore(session.scene("ticker", input: Ticker.Input.self, output: Ticker.Output.self))
            try await store.receive { $0.lifecycle = .loaded }
            try await store.perform("start") { $0.output.started = true }
            try await withKnownIssue {
                // The tick comes 20 ms later and no step receives it.
                try await store.finish(within: .seconds(2))
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined(separator: "\n")
                return text.contains(#"didUpdate ["ticks"]"#) && text.contains("was not asserted")
            }
        }
    }

    @Test("Not exhaustive, the same test passes: unreceived versions and events are let go", arguments: TestMode.allCases)
    func nonExhaustive(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let session = try await client.createSession()
            let store = try await SceneStore(session.scene("ticker", input: Ticker.Input.self, output: Ticker.Output.self))
            store.exhaustivity = .off
            try await store.perform("start") { $0.output.started = true }
            // The first tick, launched by the action, has come once the session settles.
            _ = try await session.settled()
            try await store.perform("start") { $0.output.started = true }
            try await store.receive { $0.output.ticks = 2 }
            try await store.finish()
        }
    }

    @Test("Not exhaustive, a receive whose version has already arrived passes at once instead of waiting for another", arguments: TestMode.allCases)
    func nonExhaustiveReceiveOfWhatArrived(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let session = try await client.createSession()
            let store = try await SceneStore(session.scene("ticker", input: Ticker.Input.self, output: Ticker.Output.self), timeout: .seconds(2))
            store.exhaustivity = .off
            try await store.perform("start") { $0.output.started = true }
            // The tick comes 20 ms later: the next step reads the scene once it has settled onto
            // the version the receive awaits, which the store has then already seen.
            _ = try await session.settled()
            try await store.setInput(members: [String: String]()) { _ in }
            #expect(store.state.output.ticks == 1)
            try await store.receive { $0.output.ticks = 1 }
        }
    }

    @Test("Not exhaustive, a step whose stated change did not happen still fails")
    func nonExhaustiveStillChecks() async throws {
        try await Self.server.test(.router) { client in
            let session = try await client.createSession()
            let store = try await SceneStore(try await Self.loadedCounter(session))
            store.exhaustivity = .off
            try await withKnownIssue {
                try await store.perform("increment") { $0.output.count = 2 }
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined(separator: "\n")
                return text.contains(#"−     "count" : 2"#) && text.contains(#"+     "count" : 1"#)
            }
            try await store.perform("increment") { $0.output.count = 2 }
        }
    }

    @Test("An action that throws fails its step with the server's 500 problem details")
    func errorIsAsserted() async throws {
        try await Self.server.test(.router) { client in
            let session = try await client.createSession()
            let store = try await SceneStore(session.scene("ticker", input: Ticker.Input.self, output: Ticker.Output.self))
            do {
                try await store.perform("fail") { _ in }
                Issue.record("the failing action answered 200")
            } catch let problem as ProblemDetails {
                #expect(problem.status == 500)
            }
        }
    }
}
