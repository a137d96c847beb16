import MVVMCore
import Synchronization

/// What testing mode adds to an application: clocks that only the test moves (one per session,
/// and the server's for work outside sessions), and meters that tell when view-model work has
/// gone as far as it can without a clock moving.
final class TestingMode: Sendable {
    /// The clock in every factory's ``DependencyValues``: a session's own clock within its work,
    /// the server's elsewhere.
    let clock: SessionRoutedClock
    /// Counts the work of every session that is running or ready to run.
    let meter = WorkMeter()

    private let router = Mutex<InProcessRouter?>(nil)

    /// The application's routes without sockets, while it serves (for replays).
    var routing: InProcessRouter? {
        router.withLock { $0 }
    }

    /// Sets the routes replays send their requests through; `nil` once the application stops
    /// (the router holds the application, which holds this).
    func setRouting(_ routing: InProcessRouter?) {
        router.withLock { $0 = routing }
    }

    /// Testing mode over `clock`.
    init(clock: SessionRoutedClock) {
        self.clock = clock
    }

    /// The server's clock: what work outside any session waits on.
    var serverClock: ManualClock {
        clock.server
    }

    /// Whether a wait of `session`'s work may be waiting for a clock to move: a sleep on its
    /// clock, or on the server's (a service that holds the server's clock itself).
    func hasWaits(for session: Session) -> Bool {
        (session.testing?.clock.sleeperCount ?? 0) > 0 || serverClock.sleeperCount > 0
    }

    /// A new session's own clock, at zero, and its meter, which counts into the server's.
    func makeSessionTime() -> (clock: ManualClock, meter: WorkMeter) {
        (ManualClock(), WorkMeter(parent: meter))
    }

    /// Waits until no work that `meter` counts (every session's when `nil`) is running or ready
    /// to run (each task is ended, or suspended: on a clock, or on another process); `false`
    /// when `deadline` passes first.
    func waitUntilQuiet(_ meter: WorkMeter? = nil, before deadline: ContinuousClock.Instant) async -> Bool {
        let meter = meter ?? self.meter
        while !meter.isQuiet {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: Self.pollInterval)
        }
        return true
    }

    /// Moves `clocks` together by `duration`, one deadline at a time (the earliest of any of
    /// them, counted from where each stood): before each step and after the last, waits until
    /// the work `meter` counts is quiet again, so that work which sleeps again (a retry after a
    /// backoff) is woken too when its new deadline is within `duration`. Returns `true` when
    /// the work was quiet at the end; `false` when `deadline` passed first, and then the clocks
    /// are moved the rest of the way at once.
    func advance(_ clocks: [ManualClock], by duration: Duration, quietOn meter: WorkMeter? = nil, before deadline: ContinuousClock.Instant) async
        -> Bool
    {
        let starts = clocks.map(\.now)
        var quiet = await waitUntilQuiet(meter, before: deadline)
        while quiet {
            let steps = zip(clocks, starts).compactMap { clock, start in clock.nextDeadline.map { start.duration(to: $0) } }
            guard let step = steps.min(), step <= duration else { break }
            for (clock, start) in zip(clocks, starts) { clock.wakeNext(notAfter: start.advanced(by: step)) }
            quiet = await waitUntilQuiet(meter, before: deadline)
        }
        for (clock, start) in zip(clocks, starts) {
            clock.advance(by: max(.zero, clock.now.duration(to: start.advanced(by: duration))))
        }
        return quiet
    }

    /// How often a wait for quiet looks again.
    private static let pollInterval = Duration.microseconds(500)
}
