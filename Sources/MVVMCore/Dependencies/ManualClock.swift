import Synchronization

/// A clock whose time moves only when it is told to: the clock of a server in testing mode,
/// which a test moves over HTTP (`POST /testing/clock/advance`), and a clock a Swift test can
/// move by hand.
///
/// A sleep ends when the clock is moved to or past its deadline, or when its task is cancelled
/// (it then throws `CancellationError`). A sleep whose deadline has passed already ends at once.
public final class ManualClock: Clock, Sendable {
    /// A moment of a ``ManualClock``: the time moved since the clock was made.
    public struct Instant: InstantProtocol, Sendable {
        /// The time between the clock's start and this moment.
        public let offset: Duration

        /// The moment `offset` after the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        /// Sleeps cancelled before they were registered.
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// A clock at its start, with no sleeper.
    public init() {}

    /// The time the clock has been moved to.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// One nanosecond: the clock moves by whatever it is told.
    public var minimumResolution: Duration {
        .nanoseconds(1)
    }

    /// How many sleeps are waiting for the clock to move.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// The earliest deadline a sleep waits for; `nil` when none waits.
    public var nextDeadline: Instant? {
        state.withLock { $0.sleepers.values.map(\.deadline).min() }
    }

    /// Suspends until the clock is moved to `deadline` or past it; at once when it is there
    /// already. `tolerance` is ignored: the clock is exact.
    /// - Throws: `CancellationError` when the task is cancelled before the deadline.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case waits, due, cancelled }
                let outcome = state.withLock { state -> Outcome in
                    if state.cancelled.remove(id) != nil { return .cancelled }
                    if deadline <= state.now { return .due }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .waits
                }
                switch outcome {
                case .waits: break
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // A cancellation that came after the sleep ended left its mark: drop it.
        _ = state.withLock { $0.cancelled.remove(id) }
    }

    /// Moves the clock by `duration` (zero or more) and ends every sleep whose deadline it
    /// reaches, all at once.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "A clock does not move back.")
        let target = now.advanced(by: duration)
        while wakeNext(notAfter: target) {}
    }

    /// Moves the clock to the earliest deadline a sleep waits for, when that is not after
    /// `target`, and ends the sleeps due then; returns `true`. Otherwise moves the clock to
    /// `target` (when that is later than now) and returns `false`. Moving in these steps lets
    /// the work each sleep resumes run, and sleep again, before the clock goes further.
    @discardableResult
    public func wakeNext(notAfter target: Instant) -> Bool {
        let due = state.withLock { state -> [Sleeper] in
            guard let next = state.sleepers.values.map(\.deadline).min(), next <= target else {
                if target > state.now { state.now = target }
                return []
            }
            if next > state.now { state.now = next }
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return due.sorted { $0.key < $1.key }.map(\.value)
        }
        for sleeper in due { sleeper.continuation.resume() }
        return !due.isEmpty
    }
}
