import Foundation
import Logging
import Synchronization
import Testing

@testable import MVVMCore
@testable import MVVMServer

/// A state store that cannot be prepared is closed, served or in-process: both start the same way.
@Suite("A state store that fails to prepare")
struct StoreStartFailureTests {
    struct PrepareFailed: Error {}

    /// A store whose prepare() throws, counting its closes.
    final class FailingStore: CommitOnlyStore {
        let closes = Mutex(0)
        var kind: String { "failing" }

        func prepare() async throws { throw PrepareFailed() }
        func commit(each commits: [[SessionChange]]) async -> [Result<Void, any Error>] { commits.map { _ in .success(()) } }
        func close() async { closes.withLock { $0 += 1 } }
    }

    static func application(_ store: FailingStore) -> Application {
        var configuration = ApplicationConfiguration()
        configuration.http.port = 0
        configuration.storage = SessionStorage { _, _ in store }
        return Application(configuration: configuration, catalogue: APIFixtures.catalogue(), logger: Logger(label: "test"))
    }

    @Test("Served: run() throws the store's error, and the store is closed once")
    func served() async throws {
        let store = FailingStore()
        await #expect(throws: PrepareFailed.self) { try await Self.application(store).run() }
        #expect(store.closes.withLock { $0 } == 1)
    }

    @Test("In-process: the same error, and the store is closed once too")
    func inProcess() async throws {
        let store = FailingStore()
        await #expect(throws: PrepareFailed.self) { try await Self.application(store).servingInProcess { _ in } }
        #expect(store.closes.withLock { $0 } == 1)
    }
}
