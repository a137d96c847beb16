import MVVMCore
import MVVMHTTP

/// `POST /replays` (testing mode): a journal replayed on a new session, with the first
/// divergence.
extension API {
    func addReplayRoutes(to router: inout Router, testing: TestingMode) {
        router.add("POST", "/replays") { [self] routed in try replay(routed, testing: testing) }
    }

    /// `POST /replays?wait=S` with a journal: 201, `{"session", "steps", "divergence",
    /// "waitingForClock"}` (see
    /// ``Replay``), the new session at `Location`. `wait` (the maximum wait when absent) bounds
    /// each wait for the work between two entries.
    func replay(_ routed: RoutedRequest, testing: TestingMode) throws -> Reply {
        let replay = Replay(testing: testing, sessions: sessions)
        // Malformed JSON, or a body that is not an object, is a 400 as for every other body.
        _ = try jsonObject(routed.request.body, allowEmpty: false)
        let journal = try replay.journal(from: routed.request.body)
        let wait = try waitParameter(routed, absent: longestWait)
        return .task {
            let document = try await replay.run(journal, settlingFor: wait)
            return .response(
                .json(encoding: document, status: 201, headers: [("Location", "/sessions/\(document.session)"), ("Cache-Control", "no-store")]))
        }
    }
}
