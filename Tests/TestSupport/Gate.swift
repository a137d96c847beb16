/// A point where tasks wait until the test opens it: the deterministic stand-in for a slow
/// network call. Tests learn that a task has arrived with ``waitForArrivals(_:)``, so no
/// sleep is needed; a waiting task that is cancelled leaves with `CancellationError`.
public final class Gate: Sendable {
    /// Counts the calls to ``open()``: passing is waiting for it to be at least 1.
    private let opened = Tally()
    private let arrivals = Tally()

    /// A closed gate.
    public init() {}

    /// Waits until the gate is open (returns at once when it already is).
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    public func pass() async throws {
        arrivals.increment()
        try await opened.wait(untilAtLeast: 1)
    }

    /// Opens the gate: every waiting task passes, and so will every later one.
    public func open() {
        opened.increment()
    }

    /// Returns once `count` tasks in all have arrived at the gate (passed or still waiting).
    public func waitForArrivals(_ count: Int = 1) async throws {
        try await arrivals.wait(untilAtLeast: count)
    }

    /// How many tasks are waiting now.
    public var waitingCount: Int {
        opened.waiterCount
    }
}
