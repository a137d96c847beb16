/// What a context's work is: the loads, actions and view-model tasks that run on it, and who
/// waits for it to settle. Owned by a ``ContextActor`` and used on it alone.
///
/// A context is settled when none of that work is running and nothing waits to run on it (a
/// request queued behind an action, a task resuming after a sleep).
final class SettleTracker {
    private var running = 0
    private var waiters: [UInt64: @Sendable (ContextSummary) -> Void] = [:]
    /// Whether a check is queued behind the work waiting for the actor: at most one is.
    private var checkQueued = false

    /// Whether work is running.
    var isRunning: Bool { running > 0 }

    /// Notes that a load, an action or a task started.
    func begin() {
        running += 1
    }

    /// Notes that one ended; `check` runs when none is left.
    func end(check: () -> Void) {
        running -= 1
        if running == 0 { check() }
    }

    /// Adds a waiter under its token, told once the context settles.
    func add(_ token: UInt64, _ waiter: @escaping @Sendable (ContextSummary) -> Void) {
        waiters[token] = waiter
    }

    /// Removes a waiter that is no longer waiting; `false` when it was told already.
    func remove(_ token: UInt64) -> Bool {
        waiters.removeValue(forKey: token) != nil
    }

    /// Whether anyone waits.
    var hasWaiters: Bool { !waiters.isEmpty }

    /// Takes the waiters, to tell them that the context settled.
    func takeWaiters() -> [@Sendable (ContextSummary) -> Void] {
        defer { waiters.removeAll() }
        return Array(waiters.values)
    }

    /// Marks a check as queued; `false` when one already is.
    func queueCheck() -> Bool {
        guard !checkQueued else { return false }
        checkQueued = true
        return true
    }

    /// Marks the queued check as running.
    func checkRuns() {
        checkQueued = false
    }
}
