import MVVMSupport
import Synchronization
import TestSupport
import Testing

@testable import MVVMCore
@testable import MVVMJSON
@testable import MVVMServer

extension Internals {
    /// The few long-lived tasks that run the synchronous context calls of requests.
    @Suite("Work drainer")
    struct WorkDrainerTests {
        /// A value behind a lock, shared with the submitted items.
        final class Shared<Value: Sendable>: Sendable {
            let value: Mutex<Value>
            init(_ value: Value) { self.value = Mutex(value) }
        }

        /// Runs `body` with a drainer whose drainers are children of a running ``BackgroundWork``.
        func withDrainer(maxDrainers: Int, _ body: (WorkDrainer) async throws -> Void) async throws {
            let work = BackgroundWork(logger: .init(label: "test"))
            let pieces = try #require(work.open())
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await work.run(pieces) }
                try await body(WorkDrainer(maxDrainers: maxDrainers, work: work))
                group.cancelAll()
            }
        }

        @Test("Every item submitted from many tasks at once runs exactly once")
        func everyItemRunsOnce() async throws {
            try await withDrainer(maxDrainers: 2) { drainer in
                let runs = Shared<[Int: Int]>([:])
                let finished = Tally()
                await withTaskGroup(of: Void.self) { group in
                    for submitter in 0..<8 {
                        group.addTask {
                            for item in 0..<250 {
                                drainer.submit {
                                    runs.value.withLock { $0[submitter * 1000 + item, default: 0] += 1 }
                                    finished.increment()
                                }
                            }
                        }
                    }
                }
                try await finished.wait(untilAtLeast: 2000)
                let counts = runs.value.withLock { $0 }
                #expect(counts.count == 2000)
                #expect(counts.values.allSatisfy { $0 == 1 })
            }
        }

        @Test("No more items run at once than there are drainers; the rest wait their turn")
        func boundedConcurrency() async throws {
            try await withDrainer(maxDrainers: 2) { drainer in
                let gate = Gate()
                let running = Shared((now: 0, most: 0))
                let finished = Tally()
                for _ in 0..<5 {
                    drainer.submit {
                        running.value.withLock {
                            $0.now += 1
                            $0.most = max($0.most, $0.now)
                        }
                        try? await gate.pass()
                        running.value.withLock { $0.now -= 1 }
                        finished.increment()
                    }
                }
                try await gate.waitForArrivals(2)
                // Two items hold both drainers; the other three stay queued until the gate opens.
                try await Task.sleep(for: .milliseconds(50))
                #expect(running.value.withLock { $0.now } == 2)
                gate.open()
                try await finished.wait(untilAtLeast: 5)
                #expect(running.value.withLock { $0.most } == 2)
            }
        }

        @Test("Items run in the order they were submitted on a single drainer, and a drainer that ran dry starts again")
        func orderAndRestart() async throws {
            try await withDrainer(maxDrainers: 1) { drainer in
                let order = Shared<[Int]>([])
                let finished = Tally()
                for item in 0..<100 {
                    drainer.submit {
                        order.value.withLock { $0.append(item) }
                        finished.increment()
                    }
                }
                try await finished.wait(untilAtLeast: 100)
                #expect(order.value.withLock { $0 } == Array(0..<100))
                // The queue is empty now and its drainer gone: a new item starts a new one.
                #expect(try await eventually { drainer.runningDrainers == 0 })
                drainer.submit { finished.increment() }
                try await finished.wait(untilAtLeast: 101)
            }
        }

        @Test("Without a running owner nothing is queued: submit says so, and a later run of the owner starts clean")
        func refusedWithoutOwner() async throws {
            let work = BackgroundWork(logger: .init(label: "test"))
            let drainer = WorkDrainer(maxDrainers: 1, work: work)
            #expect(!drainer.submit {})
            let ran = Tally()
            let pieces = try #require(work.open())
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await work.run(pieces) }
                #expect(drainer.submit { ran.increment() })
                try await ran.wait(untilAtLeast: 1)
                group.cancelAll()
            }
            #expect(ran.value == 1)
        }
    }
}
