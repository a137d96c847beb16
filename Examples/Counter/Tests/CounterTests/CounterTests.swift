import MVVMServerTesting
import Testing

@testable import Counter

typealias Input = CounterViewModel.Input
typealias Output = CounterViewModel.Output

@Test("The counter counts by its step and resets", arguments: TestMode.allCases)
func counts(mode: TestMode) async throws {
    try await TestServer(catalogue: CounterApp.catalogue).test(mode) { client in
        let counter = try await client.createSession().scene("counter", input: Input.self, output: Output.self)
        // The root loads as the session is made: start the store from the loaded state.
        _ = try await counter.state { $0.isLoaded }
        let store = try await SceneStore(counter)
        try await store.setInput(members: ["step": 5]) { $0.input.step = 5 }
        try await store.perform("increment") { $0.output.count = 5 }
        try await store.perform("increment") { $0.output.count = 10 }
        try await store.perform("reset") { $0.output.count = 0 }
        try await store.finish()
    }
}

@Test("A client follows the count as it changes", arguments: TestMode.allCases)
func followsTheCount(mode: TestMode) async throws {
    try await TestServer(catalogue: CounterApp.catalogue).test(mode) { client in
        let counter = try await client.createSession().scene("counter", input: Input.self, output: Output.self)
        var counts: [Int] = []
        for try await state in counter.updates() {
            counts.append(state.output.count)
            if counts.count == 3 { break }
            try await counter.perform("increment")
        }
        #expect(counts == [0, 1, 2])
    }
}

@Test("The count is saved: a session comes back with it after a restart", arguments: TestMode.allCases)
func countSurvivesRestart(mode: TestMode) async throws {
    try await TestServer(catalogue: CounterApp.catalogue).testRestart(mode) { client in
        let session = try await client.createSession()
        let counter = session.scene("counter", input: Input.self, output: Output.self)
        try await counter.perform("increment")
        #expect(try await counter.perform("increment").state.output.count == 2)
        return session.id
    } after: { client, id in
        let count = try await client.session(id: id).scene("counter", input: Input.self, output: Output.self).state().output.count
        #expect(count == 2)
    }
}
