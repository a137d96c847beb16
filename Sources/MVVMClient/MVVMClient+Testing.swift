/// The test clock and replays of a server in testing mode.
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

    /// Replays `journal` on a new session (`POST /replays`), waiting up to `wait` for the work
    /// between two entries, and reports the first answer that differed from the recorded one.
    public func replay(_ journal: Journal, wait: Duration = .seconds(10)) async throws -> ReplayOutcome {
        let document = try journal.document
        let query = Operations.ReplayJournal.Input.Query(wait: waitParameter(wait))
        let result = try await call { try await api.replayJournal(query: query, body: .json(document)).created.body.json }
        let divergence = result.divergence.map {
            ReplayOutcome.Divergence(seq: $0.seq, members: $0.members, expectedStatus: $0.expected.status, actualStatus: $0.actual.status)
        }
        let lifecycleDivergence = result.lifecycleDivergence.map {
            ReplayOutcome.Divergence(seq: $0.seq, members: $0.members, expectedStatus: $0.expected.status, actualStatus: $0.actual.status)
        }
        return ReplayOutcome(
            session: session(id: result.session), steps: result.steps, divergence: divergence,
            lifecycleDivergence: lifecycleDivergence, waitingForClock: result.waitingForClock)
    }
}
