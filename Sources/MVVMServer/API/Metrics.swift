import Synchronization

/// The counters behind `GET /metrics`, updated without entering any actor.
final class Metrics: Sendable {
    let expiredSessions = Atomic<Int>(0)
    let evictedSessions = Atomic<Int>(0)
    let deletedSessions = Atomic<Int>(0)
    let createdSessions = Atomic<Int>(0)
    let expiredLongPolls = Atomic<Int>(0)
    private let requests = Mutex<[String: Int]>([:])

    /// Counts a request under its route pattern (or `unmatched`) and method.
    func count(request: HTTPRequest, router: Router) {
        let route: String
        switch router.resolve(request) {
        case .success(let (matched, _)): route = matched.pattern.description
        case .failure: route = "unmatched"
        }
        let key = "\(request.method) \(route)"
        requests.withLock { $0[key, default: 0] += 1 }
    }

    /// Requests by method and route.
    var requestCounts: [String: Int] {
        requests.withLock { $0 }
    }
}
