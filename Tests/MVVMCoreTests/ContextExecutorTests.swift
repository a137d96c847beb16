import Dispatch
import Foundation
import MVVMSupport
import Synchronization
import TestSupport
import Testing

@testable import MVVMCore
@testable import MVVMJSON

extension Core {
    /// A context's executor: its jobs one at a time, and a synchronous call on the caller's
    /// thread when the context is idle.
    @Suite("Context executor", .timeLimit(.minutes(1)))
    struct ContextExecutorTests {
        /// An actor on a ``ContextExecutor`` that records what ran on it, in order.
        actor Recorder {
            nonisolated let executor = ContextExecutor()
            nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
            private(set) var entries: [String] = []
            /// How many records run now, and the most that ever ran at once.
            nonisolated let running = Atomic<Int>(0)
            nonisolated let mostRunning = Atomic<Int>(0)

            func record(_ entry: String) {
                mostRunning.max(running.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
                usleep(20)
                entries.append(entry)
                running.subtract(1, ordering: .relaxed)
            }

            /// Records while holding the actor until `release` is signalled.
            func hold(entered: DispatchSemaphore, release: DispatchSemaphore) {
                entries.append("held")
                entered.signal()
                release.wait()
            }
        }

        private func context() -> ContextActor {
            var dependencies = DependencyValues()
            dependencies.suggestions = FakeSuggestionService(["biggs", "boba"])
            return ContextActor(id: "c", catalogue: SuggestionsViewModel.catalogue(), dependencies: dependencies)
        }

        @Test("An idle context runs a synchronous call at once, on the calling thread, isolated to it")
        func runsWhenIdle() async throws {
            let context = context()
            let caller = UInt(pthread_self())
            let ranOn = context.runIfIdle { context -> UInt in
                context.preconditionIsolated()
                return UInt(pthread_self())
            }
            #expect(ranOn == caller)
            // The call can use the context: it makes the view model, which starts loading.
            let version = try context.runIfIdle { try $0.state(of: "suggestions").version }
            #expect(version != nil)
            _ = try await context.board.waitForLifecycle(.loaded, of: "suggestions")
            // The load's end is published before its task leaves the context: once the context
            // has run what is queued on it, it is idle and takes the call on this thread.
            var answered: PublicationBoard.Document?
            for _ in 0..<100 where answered == nil {
                await context.withContext { _ in }
                answered = try context.runIfIdle { try $0.setInput(["query": .string("b")], key: "suggestions") }
            }
            let state = try SceneState<SuggestionsViewModel.Input, SuggestionsViewModel.Output>(try #require(answered))
            #expect(state.output.suggestions == ["biggs", "boba"])
            await context.close()
        }

        @Test("While a job runs on the executor, a call from another thread is refused; once idle, it runs")
        func refusesWhileBusy() async throws {
            let recorder = Recorder()
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let holder = Task.detached { await recorder.hold(entered: entered, release: release) }
            // Checked from a thread of its own, which releases the job at once: the job holds a
            // pool thread for no longer than the check, whatever else runs on the pool.
            let refused = try await TestHTTPClient.onThread { () -> Bool in
                entered.wait()
                let ran = recorder.executor.runIfIdle { 1 }
                release.signal()
                return ran == nil
            }
            #expect(refused)
            await holder.value
            // The drain marks the executor idle just after the job's task has finished.
            var ran: Int?
            _ = try await eventually {
                ran = recorder.executor.runIfIdle { 2 }
                return ran != nil
            }
            #expect(ran == 2)
            #expect(await recorder.entries == ["held"])
        }

        @Test("Jobs enqueued during a call on the caller's thread run after it, one at a time")
        func jobsWaitForTheCall() async throws {
            let recorder = Recorder()
            let tasks = Mutex<[Task<Void, Never>]>([])
            let order = Mutex<[String]>([])
            // On a thread of its own, as a polling thread would: the call waits for the jobs to
            // be queued, which needs the pool's threads free.
            let nestedRan = try await TestHTTPClient.onThread {
                recorder.executor.runIfIdle { () -> Bool in
                    order.withLock { $0.append("call started") }
                    for index in 0..<3 {
                        let task = Task.detached { await recorder.record("job \(index)") }
                        tasks.withLock { $0.append(task) }
                    }
                    // Stay in the call until the three jobs are queued behind it.
                    while recorder.executor.waitingWorkCount < 3 { usleep(100) }
                    let nested = recorder.executor.runIfIdle { 0 }
                    order.withLock { $0.append("call ended") }
                    return nested != nil
                }
            }
            #expect(nestedRan == false, "the call ran, and a call nested in it was refused, not run inside it")
            for task in tasks.withLock({ $0 }) { await task.value }
            #expect(order.withLock { $0 } == ["call started", "call ended"])
            #expect(await recorder.entries.sorted() == ["job 0", "job 1", "job 2"])
            #expect(recorder.executor.waitingWorkCount == 0)
        }

        @Test("Many tasks entering one context at once each run exactly once, never two at a time")
        func serialUnderLoad() async throws {
            let recorder = Recorder()
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask { await recorder.record("\(index)") }
                    if index % 50 == 0 {
                        // Calls on this thread interleave with the jobs; refused while one runs.
                        _ = recorder.executor.runIfIdle { recorder.assumeIsolated { $0.record("call \(index)") } }
                    }
                }
            }
            let entries = await recorder.entries
            #expect(entries.filter { !$0.hasPrefix("call") }.count == 200)
            #expect(Set(entries).count == entries.count)
            #expect(recorder.mostRunning.load(ordering: .relaxed) == 1)
        }
    }
}
