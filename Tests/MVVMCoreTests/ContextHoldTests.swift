import Foundation
import MVVMCore
import Synchronization
import TestSupport
import Testing

extension Core {
    /// A context is kept, with no thread held, while a change it made is saved: its next calls
    /// wait for the end of the hold, which runs as its next call.
    @Suite("Keeping a context while a change is saved", .timeLimit(.minutes(1)))
    struct ContextHoldTests {
        static func context() -> ContextActor {
            ContextActor(id: "hold", catalogue: SceneCatalogue(scenes: [], rootKey: "none"), dependencies: DependencyValues())
        }

        @Test("Calls made during a hold wait until it ends; the end of the hold runs first")
        func callsWait() async throws {
            let context = Self.context()
            let order = Mutex<[String]>([])
            await context.run { $0.holdAfterThisCall() }
            let next = Task { await context.run { _ in order.withLock { $0.append("next") } } }
            #expect(context.runIfIdle { _ in true } == nil, "a held context is not idle")
            try await Task.sleep(for: .milliseconds(50))
            #expect(order.withLock { $0 }.isEmpty, "a call ran during the hold")
            context.endHold { _ in order.withLock { $0.append("end") } }
            await next.value
            #expect(order.withLock { $0 } == ["end", "next"])
            // The executor counts itself idle just after the last call's job has returned, which
            // may be a moment after the task awaiting that call resumed (ThreadSanitizer saw it).
            #expect(try await eventually { context.runIfIdle { _ in true } == true }, "the hold is over")
        }

        @Test("An end of hold that comes while the call that asked for it still runs is run right after that call, on its thread")
        func endBeforeTheCallReturns() async throws {
            let context = Self.context()
            let order = Mutex<[String]>([])
            let ran = context.runIfIdle { isolated in
                isolated.holdAfterThisCall()
                // As a commit that is done before the call has returned.
                context.endHold { _ in order.withLock { $0.append("end") } }
                order.withLock { $0.append("call") }
                return true
            }
            #expect(ran == true)
            #expect(order.withLock { $0 } == ["call", "end"])
            #expect(context.runIfIdle { _ in true } == true, "the hold is over")
        }

        @Test("Calls queued during a hold run in their order, on the thread that ends the hold; a task's job queued among them keeps its place")
        func queuedCallsRunOnTheEndingThread() async throws {
            let context = Self.context()
            let order = Mutex<[String]>([])
            await context.run { $0.holdAfterThisCall() }
            #expect(!context.runOrQueue { _ in order.withLock { $0.append("first") } }, "a held context queues the call")
            #expect(!context.runOrQueue { _ in order.withLock { $0.append("second") } })
            let seenAtFirstEnd = try await TestHTTPClient.onThread { () -> [String] in
                context.endHold { _ in order.withLock { $0.append("end") } }
                return order.withLock { $0 }
            }
            #expect(seenAtFirstEnd == ["end", "first", "second"], "the queued calls ran before endHold returned")

            // A job queued between two calls: the call before it runs on the ending thread, the
            // job and what follows it on the global queue, in order.
            order.withLock { $0.removeAll() }
            await context.run { $0.holdAfterThisCall() }
            #expect(!context.runOrQueue { _ in order.withLock { $0.append("call 1") } })
            let job = Task { await context.run { _ in order.withLock { $0.append("job") } } }
            #expect(try await eventually { context.waitingWorkCount == 2 }, "the task's job is queued behind the call")
            #expect(!context.runOrQueue { _ in order.withLock { $0.append("call 2") } })
            let seenAtEnd = try await TestHTTPClient.onThread { () -> [String] in
                context.endHold { _ in order.withLock { $0.append("end") } }
                return order.withLock { $0 }
            }
            #expect(Array(seenAtEnd.prefix(2)) == ["end", "call 1"])
            await job.value
            // The second call runs on the thread that ends the job, a moment after the job's awaiter resumes.
            #expect(try await eventually { order.withLock { $0.count } == 4 })
            #expect(order.withLock { $0 } == ["end", "call 1", "job", "call 2"])
            #expect(context.runIfIdle { _ in true } == true, "the context is idle again")
        }
    }
}
