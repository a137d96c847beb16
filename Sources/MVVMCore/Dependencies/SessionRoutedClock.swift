/// The clock of a server in testing mode: within the work of a session (its loads, actions and
/// the tasks its view models launch), that session's own ``ManualClock``; elsewhere, the
/// server's. A service made once for the whole app reads it as any clock and waits on the
/// time of the session it works for, without knowing there are several.
package struct SessionRoutedClock: Clock, Sendable {
    package typealias Instant = ManualClock.Instant

    /// The clock of the session whose work the current task does; `nil` outside sessions.
    @TaskLocal package static var session: ManualClock?

    /// The clock used outside sessions, and moved with every session's by a server-wide move.
    package let server: ManualClock

    /// A clock that falls back on `server` outside sessions.
    package init(server: ManualClock) {
        self.server = server
    }

    /// The clock the current task waits on: its session's, else the server's.
    package var current: ManualClock {
        Self.session ?? server
    }

    package var now: Instant {
        current.now
    }

    package var minimumResolution: Duration {
        .nanoseconds(1)
    }

    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await current.sleep(until: deadline, tolerance: tolerance)
    }
}
