import MVVMCore
import Synchronization

/// What testing mode adds to an application: the clock that only the test moves, and the meter
/// that tells when the view-model work of every session has gone as far as it can without the
/// clock moving.
final class TestingMode: Sendable {
    /// The clock in every factory's ``DependencyValues``.
    let clock: ManualClock
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
    init(clock: ManualClock) {
        self.clock = clock
    }

    /// Waits until no view-model work of any session is running or ready to run (each task is
    /// ended, or suspended: on the clock, or on another process); `false` when `deadline`
    /// passes first.
    func waitUntilQuiet(before deadline: ContinuousClock.Instant) async -> Bool {
        while !meter.isQuiet {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: Self.pollInterval)
        }
        return true
    }

    /// Moves the clock by `duration`, one deadline at a time: before each step and after the
    /// last, waits until the work the step resumed is quiet again, so that work which sleeps
    /// again (a retry after a backoff) is woken too when its new deadline is within `duration`.
    /// Returns `true` when the work was quiet at the end; `false` when `deadline` passed first,
    /// and then the clock is moved the rest of the way at once.
    func advance(by duration: Duration, before deadline: ContinuousClock.Instant) async -> Bool {
        let target = clock.now.advanced(by: duration)
        var quiet = await waitUntilQuiet(before: deadline)
        while quiet, clock.wakeNext(notAfter: target) {
            quiet = await waitUntilQuiet(before: deadline)
        }
        if !quiet { clock.advance(by: clock.now.duration(to: target)) }
        return quiet
    }

    /// How often a wait for quiet looks again.
    private static let pollInterval = Duration.microseconds(500)
}
