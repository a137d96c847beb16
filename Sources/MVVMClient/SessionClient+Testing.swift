/// Settling, and the session tools of testing mode.
extension SessionClient {
    /// Waits up to `wait` until none of the session's loads, actions and view-model tasks runs
    /// or waits to run (`GET /sessions/{id}/settled`); the answer says whether it settled.
    /// Offered by every server.
    public func settled(wait: Duration = .seconds(10)) async throws -> SettleResult {
        let query = Operations.GetSettled.Input.Query(wait: waitParameter(wait))
        return SettleResult(try await call { try await api.getSettled(path: .init(id: id), query: query).ok.body.json })
    }

    /// Does to this session what a restart of the server does (`POST /sessions/{id}/recreate`,
    /// testing mode only), waiting up to `wait` for the recreated work, and reports what each
    /// view model lost.
    public func recreate(wait: Duration = .seconds(10)) async throws -> RecreationReport {
        let query = Operations.RecreateSession.Input.Query(wait: waitParameter(wait))
        return RecreationReport(try await call { try await api.recreateSession(path: .init(id: id), query: query).ok.body.json })
    }

    /// The session's own test clock (`GET /sessions/{id}/clock`, testing mode only): what its
    /// work waits on, in seconds since the session was made.
    public func clock() async throws -> TestClockReading {
        TestClockReading(try await call { try await api.getSessionClock(path: .init(id: id)).ok.body.json })
    }

    /// Moves the session's own test clock by `duration` (`POST /sessions/{id}/clock/advance`,
    /// testing mode only), no other session's: every wait of its work due within it ends, in
    /// order, and the answer comes once the session's work is quiet, or after `wait` (then
    /// ``TestClockReading/settled`` is `false`). The move is recorded in its journal.
    public func advanceClock(by duration: Duration, wait: Duration = .seconds(30)) async throws -> TestClockReading {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let query = Operations.AdvanceSessionClock.Input.Query(wait: waitParameter(wait))
        return TestClockReading(
            try await call { try await api.advanceSessionClock(path: .init(id: id), query: query, body: .json(.init(seconds: seconds))).ok.body.json }
        )
    }
}

/// The journal of testing mode.
extension SessionClient {
    /// The session's journal (`GET /sessions/{id}/journal`, testing mode only).
    public func journal() async throws -> Journal {
        try Journal(try await call { try await api.getJournal(path: .init(id: id)).ok.body.json })
    }

    /// The session's journal as a POSIX shell script (`GET /sessions/{id}/journal?format=curl`):
    /// `sh journal.sh BASE_URL` replays it with curl on a new session and prints its id.
    public func journalScript() async throws -> String {
        let body = try await call { try await api.getJournal(path: .init(id: id), query: .init(format: .curl)).ok.body.textXShellscript }
        return try await String(collecting: body, upTo: 16 * 1024 * 1024)
    }
}
