import Synchronization

/// A point where service calls wait until the test opens it: the deterministic stand-in for
/// a slow network. ``waitForArrivals(_:)`` tells the test that a call has reached the gate,
/// so no sleep is needed; a waiting task that is cancelled leaves with `CancellationError`.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var nextID = 0
        var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
        var cancelledEarly: Set<Int> = []
        var arrivals = 0
        var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    /// A closed gate.
    init() {}

    /// Waits until the gate is open; returns at once when it already is.
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    func pass() async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, arrived) = state.withLock { state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    state.arrivals += 1
                    let arrived = state.arrivalWaiters.filter { $0.count <= state.arrivals }.map(\.continuation)
                    state.arrivalWaiters.removeAll { $0.count <= state.arrivals }
                    if state.cancelledEarly.remove(id) != nil { return (.failure(CancellationError()), arrived) }
                    if state.isOpen { return (.success(()), arrived) }
                    state.waiting[id] = continuation
                    return (nil, arrived)
                }
                for waiter in arrived { waiter.resume() }
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

    /// Opens the gate: every waiting call passes, and so will every later one.
    func open() {
        let released = state.withLock { state in
            state.isOpen = true
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in released { continuation.resume() }
    }

    /// Returns once `count` calls in all have arrived at the gate (passed or still waiting).
    func waitForArrivals(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state in
                if state.arrivals >= count { return true }
                state.arrivalWaiters.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }
}
