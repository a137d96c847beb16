/// What `POST /sessions/{id}/recreate` answered (testing mode): for each view model the session
/// held, the members of its input and output that a restart would lose.
public struct RecreationReport: Sendable, Equatable {
    /// One view model's losses.
    public struct Scene: Sendable, Equatable {
        /// Its store key.
        public let key: String
        /// The members whose value differed after the recreation, as paths such as
        /// `output.count`; empty when it lost nothing.
        public let lost: [String]
    }

    /// One entry for each view model held before, in the order they were made.
    public let scenes: [Scene]
    /// Whether the recreated session settled before the answer.
    public let settled: Bool
    /// Whether work of the session still waits for the test clock to move.
    public let waitingForClock: Bool

    /// The paths lost by each view model, by key, leaving out those that lost nothing.
    public var losses: [String: [String]] {
        Dictionary(scenes.filter { !$0.lost.isEmpty }.map { ($0.key, $0.lost) }) { first, _ in first }
    }

    init(_ document: Components.Schemas.Recreation) {
        scenes = document.scenes.map { Scene(key: $0.key, lost: $0.lost) }
        settled = document.settled
        waitingForClock = document.waitingForClock
    }
}
