import Synchronization

/// The counters behind `GET /metrics`, updated without entering any actor.
final class Metrics: Sendable {
    let expiredSessions = Atomic<Int>(0)
    let evictedSessions = Atomic<Int>(0)
    let deletedSessions = Atomic<Int>(0)
    let createdSessions = Atomic<Int>(0)
    let expiredLongPolls = Atomic<Int>(0)
    /// Answers by route (slot 0: no route; slot r + 1: route r) and status (100–599), in one
    /// flat array, so that counting is one lock and one index, with no hashing.
    private let answers = Mutex<[Int]>(Array(repeating: 0, count: Metrics.routeSlots * 500))
    private static let routeSlots = 65

    /// Counts one answer.
    func record(route: Int, status: Int) {
        let slot = (0..<(Self.routeSlots - 1)).contains(route) ? route + 1 : 0
        let code = (100..<600).contains(status) ? status - 100 : 499
        answers.withLock { $0[slot * 500 + code] += 1 }
    }

    /// Answers by method, route pattern (`unmatched` for none) and status.
    func requestCounts(routes: [Router.Route]) -> [(method: String, route: String, status: Int, count: Int)] {
        let snapshot = answers.withLock { $0 }
        var counts: [(method: String, route: String, status: Int, count: Int)] = []
        for slot in 0..<Self.routeSlots {
            let index = slot - 1
            let known = routes.indices.contains(index)
            for code in 0..<500 where snapshot[slot * 500 + code] > 0 {
                counts.append((known ? routes[index].method : "any", known ? routes[index].pattern.description : "unmatched", code + 100, snapshot[slot * 500 + code]))
            }
        }
        return counts
    }
}
