import MVVMServer

/// The clock in the app's ``DependencyValues``: the time the app's services wait and time out
/// by. `ContinuousClock` unless set; a test sets a clock it advances by hand.
public enum ClockKey: DependencyKey {
    /// The continuous clock.
    public static let defaultValue: any Clock<Duration> = ContinuousClock()
}

extension DependencyValues {
    /// The clock the app's services run on.
    public var clock: any Clock<Duration> {
        get { self[ClockKey.self] }
        set { self[ClockKey.self] = newValue }
    }
}
