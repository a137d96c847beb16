import Foundation
import MVVMSupport
import Synchronization
import TestSupport
import Testing

@testable import MVVMCore
@testable import MVVMServer

/// A state store for the committer's tests: only its commits matter.
protocol CommitOnlyStore: StateStore {}

extension CommitOnlyStore {
    func run(handedOver: @escaping @Sendable (String) -> Void) async {}
    func prepare() async throws {}
    func adopt(_ id: String) async throws -> SavedSession? { nil }
    func session(_ id: String) async throws -> SavedSession? { nil }
    func sessionCount() async throws -> Int { 0 }
    func isReachable() async -> Bool { true }
    func close() async {}
}

extension Internals {
    /// The saves' commits, batched on one long-lived piece of work.
    @Suite("Save committer")
    struct SaveCommitterTests {
        /// A state store that records each batch it is given and waits for `gate` before it
        /// answers the first; a session id starting with `refused` fails alone.
        final class RecordingStore: CommitOnlyStore {
            let batches = Mutex<[[[SessionChange]]]>([])
            let gate = Gate()
            var kind: String { "recording" }

            func commit(each commits: [[SessionChange]]) async -> [Result<Void, any Error>] {
                let isFirst = batches.withLock { batches in
                    batches.append(commits)
                    return batches.count == 1
                }
                if isFirst { try? await gate.pass() }
                return commits.map { changes in
                    if case .delete(let id) = changes.first, id.hasPrefix("refused") { return .failure(SessionHandedOverError(id: id)) }
                    return .success(())
                }
            }
        }

        @Test("Commits handed over while a batch is written go together into the next; each is finished once, in order, with its own outcome")
        func batchesAndOrder() async throws {
            let store = RecordingStore()
            let committer = SaveCommitter(store: store)
            committer.setTaking(true)
            let finished = Mutex<[(String, Bool)]>([])
            let done = Tally()
            func submit(_ id: String) -> Bool {
                committer.submit(
                    .init(changes: [.delete(id: id)]) { outcome in
                        finished.withLock { $0.append((id, (try? outcome.get()) != nil)) }
                        done.increment()
                    })
            }
            let run = Task { await committer.run() }
            #expect(submit("first"))
            try await store.gate.waitForArrivals(1)
            // Written while the first batch waits: these three make the second batch.
            #expect(submit("second"))
            #expect(submit("refused-third"))
            #expect(submit("fourth"))
            store.gate.open()
            try await done.wait(untilAtLeast: 4)
            await committer.drained()
            #expect(store.batches.withLock { $0.map { $0.count } } == [1, 3])
            let outcomes = finished.withLock { $0 }
            #expect(outcomes.map(\.0) == ["first", "second", "refused-third", "fourth"])
            #expect(outcomes.map(\.1) == [true, true, false, true])
            run.cancel()
            await run.value
            // Once its run has ended, nothing is taken: the caller finishes the change itself.
            #expect(!submit("late"))
        }

        @Test("A commit still pending when the run is cancelled is finished all the same, once, so no change waits forever; later ones are refused")
        func pendingAtCancellation() async throws {
            let store = RecordingStore()
            let committer = SaveCommitter(store: store)
            committer.setTaking(true)
            let finished = Tally()
            // No run yet: the commit waits.
            #expect(committer.submit(.init(changes: [.delete(id: "waiting")]) { _ in finished.increment() }))
            let run = Task { await committer.run() }
            run.cancel()
            await run.value
            // Written before the run saw the cancellation, or finished as failed: once either way.
            #expect(finished.value == 1)
            #expect(!committer.submit(.init(changes: [.delete(id: "late")]) { _ in finished.increment() }))
            #expect(finished.value == 1)
        }

        /// A store with an executor of its own, which notes where each commit is written.
        final class ExecutorStore: CommitOnlyStore {
            let executor = SerialQueueExecutor(label: "test.commit-executor")
            let writtenOnExecutor = Mutex<[Bool]>([])
            var kind: String { "executor" }
            var commitExecutor: (any TaskExecutor)? { executor }
            func commit(each commits: [[SessionChange]]) async -> [Result<Void, any Error>] {
                writtenOnExecutor.withLock { $0.append(executor.isCurrent) }
                return commits.map { _ in .success(()) }
            }
        }

        @Test("With a store that has a commit executor, batches are written and finished on it")
        func runsOnTheStoresExecutor() async throws {
            let store = ExecutorStore()
            let committer = SaveCommitter(store: store)
            committer.setTaking(true)
            let finishedOnExecutor = Mutex<[Bool]>([])
            let done = Tally()
            let run = Task { await committer.run() }
            for id in ["a", "b", "c"] {
                #expect(
                    committer.submit(
                        .init(changes: [.delete(id: id)]) { _ in
                            finishedOnExecutor.withLock { $0.append(store.executor.isCurrent) }
                            done.increment()
                        }))
                try await done.wait(untilAtLeast: 1)
            }
            try await done.wait(untilAtLeast: 3)
            #expect(!store.writtenOnExecutor.withLock { $0 }.isEmpty)
            #expect(store.writtenOnExecutor.withLock { $0 }.allSatisfy { $0 })
            #expect(finishedOnExecutor.withLock { $0 } == [true, true, true])
            run.cancel()
            await run.value
        }
    }
}
