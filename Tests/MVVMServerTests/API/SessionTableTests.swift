import MVVMSupport
import Testing

@testable import MVVMCore
@testable import MVVMHTTP
@testable import MVVMJSON
@testable import MVVMServer

/// Deleted sessions leave tombstones (410 rather than 404) for a while, and at most a bounded
/// number of them, oldest forgotten first, whatever the churn.
@Suite("Session tombstones")
struct SessionTableTests {
    private let catalogue = SceneCatalogue(
        scenes: [Scene("counter", key: "counter", viewModel: Tally.self, factory: DefaultViewModelFactory())], rootKey: "counter")

    /// A view model with one member in and out; the table never makes one.
    private final class Tally: InitializableViewModel {
        struct Input: ViewModelInput { var count = 0 }
        struct Output: Codable, Sendable, Equatable { var count = 0 }
        var input = Input()
        var output: Output { Output(count: input.count) }
    }

    private func session(_ id: String) -> Session {
        Session(id: id, context: ContextActor(id: id, catalogue: catalogue, dependencies: DependencyValues()), now: 0)
    }

    private func isGone(_ lookup: SessionTable.Lookup) -> Bool {
        if case .gone = lookup { true } else { false }
    }

    private func isUnknown(_ lookup: SessionTable.Lookup) -> Bool {
        if case .unknown = lookup { true } else { false }
    }

    @Test("Past the limit, the oldest tombstones are forgotten first")
    func oldestTombstonesGoFirst() {
        let table = SessionTable(tombstoneSeconds: 600, maxTombstones: 3)
        for index in 1...5 {
            _ = table.insert(session("s\(index)"), capacity: 10, now: UInt64(index))
            _ = table.remove("s\(index)", now: UInt64(index))
        }
        #expect(isUnknown(table.lookup("s1", now: 10)))
        #expect(isUnknown(table.lookup("s2", now: 10)))
        #expect(isGone(table.lookup("s3", now: 10)))
        #expect(isGone(table.lookup("s5", now: 10)))
    }

    @Test("Tombstones expire, and thousands of deletions keep exactly the newest ones")
    func tombstonesExpireAndStayBounded() {
        let table = SessionTable(tombstoneSeconds: 1, maxTombstones: 100)
        for index in 0..<5_000 {
            _ = table.insert(session("s\(index)"), capacity: 10, now: 0)
            _ = table.remove("s\(index)", now: 0)
        }
        #expect(isUnknown(table.lookup("s4899", now: 0)))
        #expect(isGone(table.lookup("s4900", now: 0)))
        #expect(isGone(table.lookup("s4999", now: 0)))
        _ = table.removeExpired(idleMilliseconds: 60_000, now: 1_001)
        #expect(isUnknown(table.lookup("s4999", now: 1_001)))
    }

    @Test("Tombstones keep the newest ids in order through growth, wrapping and expiry", arguments: [1, 5, 16, 40])
    func tombstonesMatchAQueueOfIds(limit: Int) {
        var tombstones = Tombstones(limit: limit)
        // The reference: every buried id with its expiry time, oldest first.
        var queue: [(id: String, until: UInt64)] = []
        // A fixed pseudo-random sequence (Knuth's linear congruential step), the same every run.
        var seed = UInt64(limit)
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 33
        }
        var now: UInt64 = 0
        for step in 0..<3_000 {
            now += next() % 3
            switch next() % 4 {
            case 0:
                tombstones.forget { $0 <= now }
                while let first = queue.first, first.until <= now { queue.removeFirst() }
            case 1 where !queue.isEmpty:
                // A second burial of a remembered id takes the new time and keeps its place.
                let index = Int(next() % UInt64(queue.count))
                tombstones.bury(queue[index].id, until: now + 20)
                queue[index].until = now + 20
            default:
                tombstones.bury("s\(step)", until: now + 20)
                if queue.count == limit { queue.removeFirst() }
                queue.append(("s\(step)", now + 20))
            }
            #expect(tombstones.count == queue.count)
        }
        for (id, until) in queue {
            #expect(tombstones.expiry(of: id) == until)
        }
        #expect(tombstones.expiry(of: "never-buried") == nil)
    }

    @Test("A full table of tombstones, turned over several times, finds every remembered id and none forgotten")
    func aFullTableTurnsOver() {
        let limit = 20_000
        var tombstones = Tombstones(limit: limit)
        for step in 0..<70_000 {
            tombstones.bury("s\(step)", until: UInt64(step))
        }
        #expect(tombstones.count == limit)
        let remembered = (50_000..<70_000).filter { tombstones.expiry(of: "s\($0)") == UInt64($0) }
        #expect(remembered.count == limit)
        let forgotten = (0..<50_000).filter { tombstones.expiry(of: "s\($0)") != nil }
        #expect(forgotten.isEmpty)
        // Expiry takes the oldest half; the newest half is still found, and new ids go in.
        tombstones.forget { $0 < 60_000 }
        #expect(tombstones.count == 10_000)
        #expect((50_000..<60_000).allSatisfy { tombstones.expiry(of: "s\($0)") == nil })
        #expect((60_000..<70_000).allSatisfy { tombstones.expiry(of: "s\($0)") == UInt64($0) })
        tombstones.bury("s70000", until: 70_000)
        #expect(tombstones.expiry(of: "s70000") == 70_000)
        #expect(tombstones.count == 10_001)
    }
}
