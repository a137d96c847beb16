@testable import MVVMCore
@testable import MVVMHTTP
@testable import MVVMJSON
@testable import MVVMServer
import MVVMSupport
import Testing

/// Deleted sessions leave tombstones (410 rather than 404) for a while, and at most a bounded
/// number of them, oldest forgotten first, whatever the churn.
@Suite("Session tombstones")
struct SessionTableTests {
    private let catalogue = SceneCatalogue(scenes: [Scene("counter", key: "counter", viewModel: Core.CounterViewModel.self, factory: DefaultViewModelFactory())], rootKey: "counter")

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
}
