/// What `GET /sessions/{id}/settled` answered: whether the session settled within the wait,
/// and the versions of its documents at that moment.
public struct SettleResult: Sendable, Equatable {
    /// Whether no work of the session was running or queued by the answer.
    public let settled: Bool
    /// The version of the navigation.
    public let navigationVersion: UInt64
    /// The version of each scene's state, by store key.
    public let sceneVersions: [String: UInt64]
    /// Whether, unsettled in testing mode, work waits on the test clock: move it to go on.
    public let waitingForClock: Bool

    init(_ document: Components.Schemas.Settled) {
        settled = document.settled
        navigationVersion = UInt64(clamping: document.versions.navigation)
        sceneVersions = document.versions.scenes.additionalProperties.mapValues { UInt64(clamping: $0) }
        waitingForClock = document.waitingForClock
    }
}
