import MVVMCore
import Synchronization

/// Writes the commits of changes to the state store in batches, on one long-lived piece of the
/// application's work: every commit handed over while a batch is being written goes into the
/// next, and once a batch is written each commit's `finish` runs, in the order they came. A
/// burst of changes costs one wake-up of that piece per batch, not one task per change.
final class SaveCommitter: Sendable {
    /// A commit waiting to be written, and what finishes it once its outcome is known (publishes
    /// or undoes the change, and answers it).
    struct Pending: Sendable {
        /// The changes to commit.
        let changes: [SessionChange]
        /// Called once, with the commit's outcome.
        let finish: @Sendable (Result<Void, any Error>) async -> Void
    }

    private struct State {
        var pending: [Pending] = []
        /// Whether ``run()`` takes commits: from its start until it ends.
        var isTaking = false
        /// Whether a batch is being written or finished now.
        var isWriting = false
        /// Who waits until nothing is pending or being written (``drained()``).
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let store: any StateStore
    private let state = Mutex(State())
    private let wake: AsyncStream<Void>
    private let wakeUp: AsyncStream<Void>.Continuation

    /// A committer to `store`; it writes nothing until ``run()`` runs.
    init(store: any StateStore) {
        self.store = store
        (wake, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Hands a commit over. Returns `false`, taking nothing, when no ``run()`` takes commits
    /// (it has not started, or has ended): the caller then finishes the change itself.
    func submit(_ pending: Pending) -> Bool {
        let taken = state.withLock { state -> Bool in
            guard state.isTaking else { return false }
            state.pending.append(pending)
            return true
        }
        if taken { wakeUp.yield() }
        return taken
    }

    /// Starts or stops taking commits. Start before the piece of work that runs ``run()``
    /// starts, so that no commit handed over meanwhile is refused; stop when that piece could
    /// not start.
    func setTaking(_ taking: Bool) {
        state.withLock { $0.isTaking = taking }
    }

    /// Writes the commits handed over, batch after batch, until the calling task is cancelled;
    /// then stops taking commits, finishes those still pending as failed, and returns. Runs on
    /// the store's commit executor when it has one, so that a batch is woken, written and
    /// finished on one thread.
    func run() async {
        await withTaskExecutorPreference(store.commitExecutor) { await takeCommits() }
    }

    private func takeCommits() async {
        for await _ in wake {
            await writePending()
        }
        let left = state.withLock { state -> [Pending] in
            state.isTaking = false
            defer { state.pending.removeAll() }
            return state.pending
        }
        for pending in left {
            await pending.finish(.failure(CancellationError()))
        }
        wakeDrainWaiters()
    }

    /// Returns once no commit is pending or being written.
    func drained() async {
        await withCheckedContinuation { (drained: CheckedContinuation<Void, Never>) in
            let isIdle = state.withLock { state -> Bool in
                guard state.pending.isEmpty, !state.isWriting else {
                    state.drainWaiters.append(drained)
                    return false
                }
                return true
            }
            if isIdle { drained.resume() }
        }
    }

    /// Writes what is pending as one batch, then again while more came meanwhile.
    private func writePending() async {
        while true {
            let batch = state.withLock { state -> [Pending] in
                defer { state.pending.removeAll() }
                state.isWriting = !state.pending.isEmpty
                return state.pending
            }
            guard !batch.isEmpty else { break }
            let outcomes = await store.commit(each: batch.map(\.changes))
            for (pending, outcome) in zip(batch, outcomes) {
                await pending.finish(outcome)
            }
        }
        wakeDrainWaiters()
    }

    private func wakeDrainWaiters() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.pending.isEmpty, !state.isWriting else { return [] }
            defer { state.drainWaiters.removeAll() }
            return state.drainWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
