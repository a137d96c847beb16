import Dispatch
import Glibc
import MVVMServer
import Synchronization
import Testing

extension Core {
    /// A context runs a synchronous call on the calling thread when it is free, so that a request
    /// whose work never suspends is answered without a thread hop; when it is busy the call
    /// declines, and the same call made with `await` waits its turn.
    @Suite("Inline calls on a free context", .timeLimit(.minutes(1)))
    struct ContextExecutorTests {
        typealias Counter = SceneState<CounterViewModel.Input, CounterViewModel.Output>

        private func context() -> ContextActor {
            let catalogue = SceneCatalogue(scenes: [Scene("counter", key: "counter", viewModel: CounterViewModel.self, factory: DefaultViewModelFactory())], rootKey: "counter")
            return ContextActor(id: "inline", catalogue: catalogue, dependencies: DependencyValues())
        }

        @Test("A free context runs the call on the calling thread, isolated, and returns its result")
        func freeContextRunsInline() async throws {
            let context = context()
            let caller = pthread_self()
            let ranHere = context.immediately { _ in pthread_equal(pthread_self(), caller) != 0 }
            #expect(ranHere == true)

            let state = try context.immediately { try $0.setInput(["count": .number(3)], key: "counter") }
            #expect(try Counter(#require(state)).output.count == 3)
            // The inline call changed the same view models an awaited call sees.
            #expect(try Counter(await context.state(of: "counter")).output.count == 3)
            await context.close()
        }

        @Test("A busy context declines the inline call; awaited calls wait their turn and run in order")
        func busyContextDeclines() async throws {
            let context = context()
            let inside = Atomic<Bool>(false)
            let release = DispatchSemaphore(value: 0)
            let busy = Task {
                await context.run { _ in
                    inside.store(true, ordering: .releasing)
                    release.wait()
                }
            }
            while !inside.load(ordering: .acquiring) {
                try await Task.sleep(for: .milliseconds(1))
            }

            #expect(context.immediately { _ in true } == nil, "the context is busy, so nothing ran inline")
            let queued = Task { try await context.setInput(["count": .number(7)], key: "counter") }
            release.signal()
            await busy.value
            #expect(try Counter(await queued.value).output.count == 7)

            // Free again: the next call runs inline and sees what the queued one did.
            let count = try context.immediately { try Counter($0.state(of: "counter")).output.count }
            #expect(count == 7)
            await context.close()
        }

        @Test("An error thrown by an inline call reaches the caller and leaves the context free")
        func inlineErrorsPropagate() async throws {
            let context = context()
            #expect(throws: ViewModelStoreError.self) {
                _ = try context.immediately { try $0.state(of: "no-such-scene") }
            }
            #expect(context.immediately { _ in 1 } == 1)
            await context.close()
        }
    }

    /// The event log is bounded: past its capacity the oldest events are dropped, and reading
    /// after a dropped one says so.
    @Suite("Event log bounds")
    struct EventLogBoundsTests {
        @Test("Past many times its capacity, the log keeps the newest events in order")
        func keepsTheNewest() {
            let log = EventLog(capacity: 4)
            for seq in 1...23 {
                log.append(ContextEvent(seq: UInt64(seq), key: "counter", type: "didUpdate"))
            }
            #expect(log.lastSeq == 23)
            #expect(log.lastDroppedSeq == 19)
            #expect(log.events(after: 19)?.map(\.seq) == [20, 21, 22, 23])
            #expect(log.events(after: 21)?.map(\.seq) == [22, 23])
            #expect(log.events(after: 23)?.isEmpty == true)
            #expect(log.events(after: 18) == nil, "event 19 was dropped: the client must re-read the state")
        }
    }
}
