import Dispatch
import Glibc
import Synchronization

/// The serial executor of a ``ContextActor``: it runs the context's jobs one at a time, like
/// an actor's default executor, and it can also run a synchronous call on the calling thread
/// when the context is free, so that a request whose work never suspends is answered without
/// a thread hop (``run(ifIdle:)``).
///
/// Mutual exclusion: the context is held either by a drain (running queued jobs on a
/// Dispatch thread) or by one inline caller (its thread is recorded as the owner), never by
/// both; jobs enqueued while it is held wait in the queue and are drained after.
final class ContextExecutor: SerialExecutor {
    private struct State: ~Copyable {
        var queue: [UnownedJob] = []
        var queueHead = 0
        var isDraining = false
        var inlineOwner: pthread_t?

        var hasQueuedJobs: Bool { queueHead < queue.count }
    }

    private let state = Mutex(State())
    /// The thread that holds the context inline (0: none), readable without the lock: the
    /// isolation check runs on every inline call.
    private let inlineThread = Atomic<UInt>(0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let startsDrain = state.withLock { state -> Bool in
            state.queue.append(job)
            guard !state.isDraining, state.inlineOwner == nil else { return false }
            state.isDraining = true
            return true
        }
        if startsDrain { scheduleDrain() }
    }

    /// Runs `body` at once on this thread, isolated to the context, when no job is running or
    /// waiting; returns `nil` without running it otherwise.
    func run<Result>(ifIdle body: () throws -> Result) rethrows -> Result? {
        let thread = pthread_self()
        let acquired = state.withLock { state -> Bool in
            guard !state.isDraining, state.inlineOwner == nil, !state.hasQueuedJobs else { return false }
            state.inlineOwner = thread
            inlineThread.store(UInt(thread), ordering: .relaxed)
            return true
        }
        guard acquired else { return nil }
        defer {
            let startsDrain = state.withLock { state -> Bool in
                state.inlineOwner = nil
                inlineThread.store(0, ordering: .relaxed)
                guard state.hasQueuedJobs else { return false }
                state.isDraining = true
                return true
            }
            if startsDrain { scheduleDrain() }
        }
        return try body()
    }

    func isIsolatingCurrentContext() -> Bool? {
        // Only the owning thread itself can see its own id here (it stored it), so a relaxed
        // load cannot make another thread believe it holds the context.
        inlineThread.load(ordering: .relaxed) == UInt(pthread_self())
    }

    func checkIsolated() {
        precondition(isIsolatingCurrentContext() == true, "not on the context's executor")
    }

    private func scheduleDrain() {
        DispatchQueue.global().async { self.drain() }
    }

    /// Runs the queued jobs in order until none is left.
    private func drain() {
        while let job = nextJob() {
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    private func nextJob() -> UnownedJob? {
        state.withLock { state in
            guard state.hasQueuedJobs else {
                state.queue.removeAll(keepingCapacity: state.queue.capacity <= 16)
                state.queueHead = 0
                state.isDraining = false
                return nil
            }
            let job = state.queue[state.queueHead]
            state.queueHead += 1
            return job
        }
    }
}
