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
}
