import Synchronization

/// The counters behind `GET /metrics`, updated without entering any actor.
final class Metrics: Sendable {
    let expiredSessions = Atomic<Int>(0)
    let evictedSessions = Atomic<Int>(0)
    let deletedSessions = Atomic<Int>(0)
    let createdSessions = Atomic<Int>(0)
    let expiredLongPolls = Atomic<Int>(0)
    /// Answers by route index (-1: no route) and status.
    private let answers = Mutex<[Int: [Int: Int]]>([:])

    /// Counts one answer.
    func record(route: Int, status: Int) {
        answers.withLock { $0[route, default: [:]][status, default: 0] += 1 }
    }

    /// Answers by method, route pattern (`unmatched` for none) and status.
    func requestCounts(routes: [Router.Route]) -> [(method: String, route: String, status: Int, count: Int)] {
        let snapshot = answers.withLock { $0 }
        var counts: [(method: String, route: String, status: Int, count: Int)] = []
        for (index, byStatus) in snapshot.sorted(by: { $0.key < $1.key }) {
            let known = routes.indices.contains(index)
            for (status, count) in byStatus.sorted(by: { $0.key < $1.key }) {
                counts.append((known ? routes[index].method : "any", known ? routes[index].pattern.description : "unmatched", status, count))
            }
        }
        return counts
    }
}
