import MVVMCore
import MVVMHTTP
import MVVMJSON
import Synchronization

/// The counters behind `GET /metrics`, updated without entering any actor.
// Safe: `answers` is allocated and initialized in init, freed only in deinit, and every access
// in between goes through the atomic counters it points to.
final class Metrics: @unchecked Sendable {
    let expiredSessions = Atomic<Int>(0)
    let evictedSessions = Atomic<Int>(0)
    let deletedSessions = Atomic<Int>(0)
    let createdSessions = Atomic<Int>(0)
    let expiredLongPolls = Atomic<Int>(0)
    /// Synchronous context calls run on the polling thread that read their request.
    let contextCallsOnPollingThread = Atomic<Int>(0)
    /// Synchronous context calls handed to the draining tasks (their context was busy, or the
    /// caller was not a polling thread).
    let contextCallsHandedOff = Atomic<Int>(0)
    /// Answers by route (slot 0: no route; slot r + 1: route r) and status (100–599), in one
    /// flat buffer of atomic counters, so that counting takes no lock and does no hashing.
    private let answers: UnsafeMutablePointer<Atomic<Int>>
    private static let routeSlots = 65
    private static let answerCount = routeSlots * 500

    init() {
        answers = .allocate(capacity: Self.answerCount)
        for index in 0..<Self.answerCount {
            (answers + index).initialize(to: Atomic(0))
        }
    }

    deinit {
        answers.deinitialize(count: Self.answerCount)
        answers.deallocate()
    }

    /// Counts one answer.
    func record(route: Int, status: Int) {
        let slot = (0..<(Self.routeSlots - 1)).contains(route) ? route + 1 : 0
        let code = (100..<600).contains(status) ? status - 100 : 499
        answers[slot * 500 + code].add(1, ordering: .relaxed)
    }

    /// Answers by method, route pattern (`unmatched` for none) and status.
    func requestCounts(routes: [Router.Route]) -> [(method: String, route: String, status: Int, count: Int)] {
        let snapshot = (0..<Self.answerCount).map { answers[$0].load(ordering: .relaxed) }
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
