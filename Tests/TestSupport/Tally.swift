import Synchronization

/// A thread-safe count that only grows (factory calls, arrivals at a gate, recorded
/// entries), and tasks waiting until it reaches a number. A waiting task that is cancelled
/// (e.g. by a test's time limit) leaves with `CancellationError` instead of hanging.
public final class Tally: Sendable {
    private struct Waiter {
        let target: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var value = 0
        var nextWaiterID = 0
        var waiters: [Int: Waiter] = [:]
        var cancelledEarly: Set<Int> = []
    }

    private let state = Mutex(State())

    /// A tally at zero.
    public init() {}

    /// The count so far.
    public var value: Int {
        state.withLock { $0.value }
    }

    /// How many tasks are waiting now.
    public var waiterCount: Int {
        state.withLock { $0.waiters.count }
    }

    /// Adds one and wakes the waiters whose number is reached.
    public func increment() {
        let reached = state.withLock { state in
            state.value += 1
            let value = state.value
            let reached = state.waiters.filter { $0.value.target <= value }
            for id in reached.keys { state.waiters[id] = nil }
            return reached.values.map(\.continuation)
        }
        for continuation in reached { continuation.resume() }
    }

    /// Returns once the count is at least `target`.
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    public func wait(untilAtLeast target: Int) async throws {
        let id = state.withLock { state -> Int in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
                    if state.value >= target { return .success(()) }
                    state.waiters[id] = Waiter(target: target, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter.continuation }
                state.cancelledEarly.insert(id)
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }
}
