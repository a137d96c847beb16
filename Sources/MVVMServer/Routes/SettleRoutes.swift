import MVVMCore
import MVVMHTTP
import Synchronization

/// `GET /sessions/{id}/settled`: waits until no work of the session is running or queued.
extension API {
    func addSettleRoutes(to router: inout Router) {
        router.add("GET", "/sessions/{id}/settled") { [self] routed in try settled(routed) }
    }

    /// `GET …/settled?wait=S`: `{"settled": true, "versions"}` once none of the session's loads,
    /// actions and view-model tasks runs and nothing waits to run on it; `{"settled": false}`
    /// with the versions of the moment when `wait` seconds (cut to the maximum wait, 0 when
    /// absent) pass first, and whether work then waits on the test clock.
    func settled(_ routed: RoutedRequest) throws -> Reply {
        let session = try liveSession(routed)
        let wait = try waitParameter(routed, absent: .zero)
        guard let place = sessions.reserveParking(for: session) else {
            return .problem(.parkingFull)
        }
        let context = session.context
        let board = session.board
        let testing = testing
        let token = ContextActor.makeSettleToken()
        // The scene keys of the moment the wait began, for the versions of an unsettled answer.
        let keys = Mutex<[String]>([])
        return .later { handle in
            _ = context.runOrQueue { actor in
                keys.withLock { $0 = actor.summary().entries.map(\.key) }
                actor.whenSettled(token: token) { summary in
                    place.release()
                    handle.answer(
                        .json(
                            encoding: SettledDocument(settled: true, versions: .init(summary), waitingForClock: false),
                            headers: [("Cache-Control", "no-store")]))
                }
            }
            handle.setDeadline(after: wait) {
                _ = context.runOrQueue { actor in
                    if actor.cancelSettleWait(token) { place.release() }
                }
                let versions = SettledDocument.Versions(board: board, keys: keys.withLock { $0 })
                let waitingForClock = testing?.hasWaits(for: session) ?? false
                return .json(
                    encoding: SettledDocument(settled: false, versions: versions, waitingForClock: waitingForClock),
                    headers: [("Cache-Control", "no-store")])
            }
        }
    }
}

/// The answer of `GET …/settled`.
struct SettledDocument: Encodable {
    /// The versions of the session's documents.
    struct Versions: Encodable {
        let navigation: UInt64
        let scenes: [String: UInt64]

        /// The versions a summary holds.
        init(_ summary: ContextSummary) {
            navigation = summary.navigation.version
            scenes = Dictionary(summary.entries.map { ($0.key, $0.version) }) { first, _ in first }
        }

        /// The versions the board publishes now, of these scenes.
        init(board: PublicationBoard, keys: [String]) {
            navigation = board.document(.navigation)?.version ?? 0
            scenes = Dictionary(keys.compactMap { key in board.document(.scene(key)).map { (key, $0.version) } }) { first, _ in first }
        }
    }

    let settled: Bool
    let versions: Versions
    /// Whether, unsettled in testing mode, work waits on the test clock, which a test moves.
    let waitingForClock: Bool
}
