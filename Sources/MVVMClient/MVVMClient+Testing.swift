/// The test clock of a server in testing mode.
extension MVVMClient {
    /// The test clock now (`GET /testing/clock`).
    public func testClock() async throws -> TestClockReading {
        TestClockReading(try await call { try await api.getTestClock().ok.body.json })
    }

    /// Moves the test clock by `duration` (`POST /testing/clock/advance`): every wait due within
    /// it ends, in order, and the answer comes once the work they resumed is quiet, or after
    /// `wait` (then ``TestClockReading/settled`` is `false`).
    public func advanceClock(by duration: Duration, wait: Duration = .seconds(30)) async throws -> TestClockReading {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let query = Operations.AdvanceTestClock.Input.Query(wait: waitParameter(wait))
        return TestClockReading(try await call { try await api.advanceTestClock(query: query, body: .json(.init(seconds: seconds))).ok.body.json })
    }
}
