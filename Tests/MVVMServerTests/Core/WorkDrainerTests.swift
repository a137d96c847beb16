@testable import MVVMCore
@testable import MVVMHTTP
@testable import MVVMJSON
@testable import MVVMServer
import MVVMSupport
import Synchronization
import TestSupport
import Testing

extension Core {
    /// The few long-lived tasks that run the synchronous context calls of requests.
    @Suite("Work drainer")
    struct WorkDrainerTests {
        /// A value behind a lock, shared with the submitted items.
        final class Shared<Value: Sendable>: Sendable {
            let value: Mutex<Value>
            init(_ value: Value) { self.value = Mutex(value) }
        }

        @Test("Every item submitted from many tasks at once runs exactly once")
        func everyItemRunsOnce() async throws {
            let drainer = WorkDrainer(maxDrainers: 2)
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

        @Test("No more items run at once than there are drainers; the rest wait their turn")
        func boundedConcurrency() async throws {
            let drainer = WorkDrainer(maxDrainers: 2)
            let gate = Gate()
            let running = Shared((now: 0, most: 0))
            let finished = Tally()
            for _ in 0..<5 {
                drainer.submit {
                    running.value.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
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

        @Test("Items run in the order they were submitted on a single drainer, and a drainer that ran dry starts again")
        func orderAndRestart() async throws {
            let drainer = WorkDrainer(maxDrainers: 1)
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
            try await Task.sleep(for: .milliseconds(20))
            drainer.submit { finished.increment() }
            try await finished.wait(untilAtLeast: 101)
        }
    }
}
