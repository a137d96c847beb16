import Dispatch
import Foundation
import Synchronization

/// The serial executor of a ``ContextActor``: runs the actor's jobs one at a time on the global
/// queue, like a default actor, and also lets a thread that is not running the actor run a
/// synchronous call on it at once when it is idle (``runIfIdle(_:)``), which a default actor
/// cannot offer. The HTTP runtime uses that to run a request's view-model call on the polling
/// thread that read the request, without a hop to another thread and back.
final class ContextExecutor: SerialExecutor {
    private struct State {
        /// Whether a thread runs the actor now (a drain of the queue, or a call of `runIfIdle`).
        var isRunning = false
        var jobs: [UnownedJob] = []
        var head = 0
        /// Whether the call running now asked to keep the actor after it ends (``holdAfterCurrentCall()``).
        var holdRequested = false
    }

    /// How many jobs a drain runs before it lets the global queue run other work.
    private static let jobsPerDrain = 32

    private let state = Mutex(State())
    /// The thread running the actor now, 0 when none: what the isolation checks compare with.
    /// A run takes it over with an acquiring exchange and gives it back with a releasing store,
    /// so that each run of the actor happens after the one before it also for ThreadSanitizer,
    /// which does not see the lock (`scripts/sanitizers/thread.supp`).
    private let runningThread = Atomic<UInt>(0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let startsDrain = state.withLock { state -> Bool in
            state.jobs.append(job)
            guard !state.isRunning else { return false }
            state.isRunning = true
            return true
        }
        if startsDrain { scheduleDrain() }
    }

    /// Runs `body` on this thread as the actor's current call when no other call is running
    /// on it; returns `nil` without running it otherwise. Jobs enqueued meanwhile run after it.
    func runIfIdle<Result>(_ body: () throws -> Result) rethrows -> Result? {
        let acquired = state.withLock { state -> Bool in
            guard !state.isRunning else { return false }
            state.isRunning = true
            return true
        }
        guard acquired else { return nil }
        beginRun()
        defer {
            endRun()
            if release() { scheduleDrain() }
        }
        return try body()
    }

    /// Keeps the actor once the call running now ends: no other call runs on it (jobs wait,
    /// ``runIfIdle(_:)`` declines) until ``endHold(_:)``. No thread is held meanwhile. Call it
    /// from the actor's current call.
    func holdAfterCurrentCall() {
        state.withLock { $0.holdRequested = true }
    }

    /// Ends a hold of ``holdAfterCurrentCall()``: runs `body` on this thread as the actor's
    /// call, then lets the jobs that waited run.
    func endHold(_ body: () -> Void) {
        beginRun()
        body()
        endRun()
        if release() { scheduleDrain() }
    }

    /// How many jobs wait for the actor.
    var queuedJobCount: Int {
        state.withLock { $0.jobs.count - $0.head }
    }

    func checkIsolated() {
        precondition(isIsolatingCurrentContext(), "Not running on the context's executor.")
    }

    func isIsolatingCurrentContext() -> Bool {
        runningThread.load(ordering: .relaxed) == Self.currentThread
    }

    private func scheduleDrain() {
        DispatchQueue.global().async { self.drain() }
    }

    private func drain() {
        let executor = asUnownedSerialExecutor()
        for _ in 0..<Self.jobsPerDrain {
            guard let job = nextJob() else { return }
            beginRun()
            job.runSynchronously(on: executor)
            endRun()
            if takeHold() { return }
        }
        // Still running: the rest of the queue gets a drain of its own, after other work.
        if release() { scheduleDrain() }
    }

    private func beginRun() {
        _ = runningThread.exchange(Self.currentThread, ordering: .acquiring)
    }

    private func endRun() {
        runningThread.store(0, ordering: .releasing)
    }

    /// The next job, or `nil` with the actor marked idle when the queue is empty.
    private func nextJob() -> UnownedJob? {
        state.withLock { state -> UnownedJob? in
            guard state.head < state.jobs.count else {
                state.jobs.removeAll(keepingCapacity: state.jobs.capacity <= 64)
                state.head = 0
                state.isRunning = false
                return nil
            }
            let job = state.jobs[state.head]
            state.head += 1
            return job
        }
    }

    /// Whether the call that just ended asked for a hold; the actor then stays marked running.
    private func takeHold() -> Bool {
        state.withLock { state -> Bool in
            defer { state.holdRequested = false }
            return state.holdRequested
        }
    }

    /// Ends a run: marks the actor idle when no job waits; `true` when jobs wait (the actor
    /// stays marked running, for the drain the caller schedules). A run whose call asked for a
    /// hold keeps the actor marked running, and returns `false`.
    private func release() -> Bool {
        state.withLock { state -> Bool in
            if state.holdRequested {
                state.holdRequested = false
                return false
            }
            if state.head < state.jobs.count { return true }
            state.jobs.removeAll(keepingCapacity: state.jobs.capacity <= 64)
            state.head = 0
            state.isRunning = false
            return false
        }
    }

    private static var currentThread: UInt {
        UInt(pthread_self())
    }
}
