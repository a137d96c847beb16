/// The clock every wait of an app reads: `ContinuousClock` unless set, and in testing mode the
/// server's ``ManualClock``, which only the test moves.
private enum ClockKey: DependencyKey {
    static let defaultValue: any Clock<Duration> = ContinuousClock()
}

extension DependencyValues {
    /// The clock the app's services and view models wait and time out by. A server in testing
    /// mode sets its ``ManualClock`` here, so every wait that reads this clock waits for the
    /// test to move it; a service made before the server starts reads it from the values the
    /// entry point hands to the app's `dependencies` closure.
    public var clock: any Clock<Duration> {
        get { self[ClockKey.self] }
        set { self[ClockKey.self] = newValue }
    }
}
