/// The clock an ``ApiSession`` times its attempts, pauses and deadline with: any
/// `Clock<Duration>`, such as `ContinuousClock` when serving or a test clock that a test
/// advances by hand.
struct SessionClock: Sendable {
    /// The time since the clock was made.
    let elapsed: @Sendable () -> Duration
    /// Suspends for a duration of the clock's time.
    let sleep: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleep = { try await clock.sleep(for: $0) }
    }
}
