import MVVMCore
import MVVMJSON
import MVVMSupport
import TestSupport
import Testing

extension Core {
    /// Each context runs its view models one call at a time on its own actor (the role of UIKit's
    /// main thread); different contexts run in parallel.
    @Suite("Contexts in parallel", .timeLimit(.minutes(1)))
    struct ContextConcurrencyTests {
        typealias State = SceneState<SuggestionsViewModel.Input, SuggestionsViewModel.Output>

        private func context(_ id: String, service: any SuggestionService) -> ContextActor {
            var dependencies = DependencyValues()
            dependencies.suggestions = service
            return ContextActor(id: id, catalogue: SuggestionsViewModel.catalogue(), dependencies: dependencies)
        }

        @Test("A load suspended in one context does not block calls or loads in another")
        func suspendedLoadDoesNotBlockAnotherContext() async throws {
            let gate = Gate()
            let slow = context("slow", service: FakeSuggestionService(["mon mothma"], gate: gate))
            let fast = context("fast", service: FakeSuggestionService(["biggs", "boba"]))

            _ = try await slow.state(of: "suggestions")
            try await gate.waitForArrivals(1)
            // The load has reached the service; its `loading` document may be published a moment later.
            _ = try await slow.board.waitForLifecycle(.loading, of: "suggestions")

            // The slow context's load is suspended; the fast one loads and answers meanwhile.
            _ = try await fast.state(of: "suggestions")
            try await fast.board.waitForLifecycle(.loaded, of: "suggestions")
            let answered = try State(await fast.setInput(["query": .string("b")], key: "suggestions"))
            #expect(answered.output.suggestions == ["biggs", "boba"])
            #expect(try State(of: "suggestions", on: slow.board).lifecycle == .loading, "the slow context is still loading")

            gate.open()
            let slowLoaded = try State(await slow.board.waitForLifecycle(.loaded, of: "suggestions"))
            #expect(slowLoaded.output.wordCount == 1)
            await slow.close()
            await fast.close()
        }

        @Test("Two contexts each suspended in a load are both served, and each finishes when released")
        func bothSuspended() async throws {
            let gateA = Gate()
            let gateB = Gate()
            let a = context("a", service: FakeSuggestionService(["jyn"], gate: gateA))
            let b = context("b", service: FakeSuggestionService(["cassian", "k2"], gate: gateB))
            _ = try await a.state(of: "suggestions")
            _ = try await b.state(of: "suggestions")
            try await gateA.waitForArrivals(1)
            try await gateB.waitForArrivals(1)
            // Each load has reached its service; the `loading` documents may be published a moment later.
            _ = try await a.board.waitForLifecycle(.loading, of: "suggestions")
            _ = try await b.board.waitForLifecycle(.loading, of: "suggestions")

            gateB.open()
            #expect(try State(await b.board.waitForLifecycle(.loaded, of: "suggestions")).output.wordCount == 2)
            #expect(try State(of: "suggestions", on: a.board).lifecycle == .loading)
            gateA.open()
            #expect(try State(await a.board.waitForLifecycle(.loaded, of: "suggestions")).output.wordCount == 1)
            await a.close()
            await b.close()
        }

        @Test("Many contexts made and used concurrently keep their view models apart")
        func manyContexts() async throws {
            let catalogue = SceneCatalogue(
                scenes: [Scene("counter", key: "counter", viewModel: CounterViewModel.self, factory: DefaultViewModelFactory())], rootKey: "counter")
            let counts = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for index in 0..<16 {
                    group.addTask {
                        let context = ContextActor(id: "c\(index)", catalogue: catalogue, dependencies: DependencyValues())
                        _ = try await context.setInput(["count": .number(Double(index))], key: "counter")
                        let count = try SceneState<CounterViewModel.Input, CounterViewModel.Output>(await context.state(of: "counter")).output.count
                        await context.close()
                        return (index, count)
                    }
                }
                return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
            }
            #expect(counts.count == 16)
            #expect(counts.allSatisfy { $0.key == $0.value })
        }
    }
}
