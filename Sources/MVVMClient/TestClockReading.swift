/// The test clock of a server in testing mode, as `GET /testing/clock` and
/// `POST /testing/clock/advance` answer it.
public struct TestClockReading: Sendable, Equatable {
    /// How far the clock has moved since the server started.
    public let now: Duration
    /// How many waits wait for the clock to move.
    public let waiting: Int
    /// When the earliest of them comes due, in the clock's time; `nil` when none waits.
    public let nextDeadline: Duration?
    /// In an advance's answer, whether the work the move resumed was quiet by the answer;
    /// `nil` in a plain reading.
    public let settled: Bool?

    init(_ document: Components.Schemas.TestClock) {
        now = .seconds(document.now)
        waiting = document.waiting
        nextDeadline = document.nextDeadline.map { .seconds($0) }
        settled = document.settled
    }
}
