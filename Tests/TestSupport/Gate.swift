import Synchronization

/// A point where tasks wait until the test opens it: the deterministic stand-in for a slow
/// network call. Tests learn that a task has arrived with ``waitForArrivals(_:)``, so no
/// sleep is needed; a waiting task that is cancelled leaves with `CancellationError`.
public final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var nextID = 0
        var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
        var cancelledEarly: Set<Int> = []
    }

    private let state = Mutex(State())
    private let arrivals = Tally()

    /// A closed gate.
    public init() {}

    /// Waits until the gate is open (returns at once when it already is).
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    public func pass() async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
                    if state.isOpen { return .success(()) }
                    state.waiting[id] = continuation
                    return nil
                }
                arrivals.increment()
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                if let continuation = state.waiting.removeValue(forKey: id) { return continuation }
                state.cancelledEarly.insert(id)
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Opens the gate: every waiting task passes, and so will every later one.
    public func open() {
        let released = state.withLock { state in
            state.isOpen = true
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in released { continuation.resume() }
    }

    /// Returns once `count` tasks in all have arrived at the gate (passed or still waiting).
    public func waitForArrivals(_ count: Int = 1) async throws {
        try await arrivals.wait(untilAtLeast: count)
    }

    /// How many tasks are waiting now.
    public var waitingCount: Int {
        state.withLock { $0.waiting.count }
    }
}
