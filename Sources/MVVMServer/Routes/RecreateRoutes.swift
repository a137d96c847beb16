import MVVMCore
import MVVMHTTP

/// `POST /sessions/{id}/recreate` (testing mode): process death for one session, with a report.
extension API {
    func addRecreateRoutes(to router: inout Router, testing: TestingMode) {
        router.add("POST", "/sessions/{id}/recreate") { [self] routed in try recreate(routed, testing: testing) }
    }

    /// `POST …/recreate?wait=S`: drops the session's view models and makes them again from the
    /// session as it is saved; answers `{"scenes": [{"key", "lost"}], "settled",
    /// "waitingForClock"}` once the recreated work is quiet, or when `wait` seconds (the
    /// maximum wait when absent) pass first. The session keeps its id; its versions go on.
    func recreate(_ routed: RoutedRequest, testing: TestingMode) throws -> Reply {
        let session = try liveSession(routed)
        let wait = try waitParameter(routed, absent: longestWait)
        let recreation = Recreation(sessions: sessions, testing: testing)
        return .task {
            let document = try await recreation.recreate(session, before: .now + wait)
            return .response(.json(encoding: document, headers: [("Cache-Control", "no-store")]))
        }
    }
}
