import Dispatch
import Foundation
import Synchronization

/// The serial executor of a ``ContextActor``: runs the actor's jobs one at a time on the global
/// queue, like a default actor, and also lets a thread that is not running the actor run a
/// synchronous call on it at once when it is idle (``runIfIdle(_:)``), or have it run after the
/// call running now, by the thread that ends that one (``runOrQueue(_:)``), which a default
/// actor cannot offer. The HTTP runtime uses that to run a request's view-model call on the
/// polling thread that read the request, without a hop to another thread and back.
///
/// It is the task executor of the context's loads, actions and launched tasks as well: their
/// nonisolated code (a view model's `async` method compiled without nonsending isolation, a
/// launched closure, the child tasks they make) runs in the same queue, one job at a time with
/// the actor's, so that a view model is only ever used by one thread at a time.
final class ContextExecutor: SerialExecutor, TaskExecutor {
    /// What waits for the actor: a job of a task, or a synchronous call of ``runOrQueue(_:)``.
    private enum Work {
        case job(UnownedJob)
        case call(@Sendable () -> Void)
    }

    private struct State {
        /// Whether a thread runs the actor now (a drain of the queue, or a call of `runIfIdle`).
        var isRunning = false
        var jobs: [Work] = []
        var head = 0
        /// Where a hold of the actor is (``holdAfterCurrentCall()``).
        var hold = Hold.none
    }

    /// A hold of the actor past the end of the call that asked for it.
    private enum Hold {
        case none
        /// The running call asked for it; its run has not ended yet.
        case requested
        /// The run ended; the actor is kept (marked running) until ``endHold(_:)``.
        case kept
        /// ``endHold(_:)`` came before the run ended: the run's thread runs this body when it
        /// ends, as the actor's next call.
        case ended(@Sendable () -> Void)
    }

    /// How many jobs a drain runs before it lets the global queue run other work.
    private static let jobsPerDrain = 32

    private let state = Mutex(State())
    /// Told when the actor becomes busy and idle again, in testing mode.
    private let meter: WorkMeter?
    /// The thread running the actor now, 0 when none: what the isolation checks compare with.
    /// A run takes it over with an acquiring exchange and gives it back with a releasing store,
    /// so that each run of the actor happens after the one before it also for ThreadSanitizer,
    /// which does not see the lock (`scripts/sanitizers/thread.supp`).
    private let runningThread = Atomic<UInt>(0)

    /// An executor whose busy spells `meter` counts, when given.
    init(meter: WorkMeter? = nil) {
        self.meter = meter
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let startsDrain = state.withLock { state -> Bool in
            state.jobs.append(.job(job))
            guard !state.isRunning else { return false }
            state.isRunning = true
            meter?.contextBecameBusy()
            return true
        }
        if startsDrain { scheduleDrain() }
    }

    /// Runs `body` on this thread as the actor's current call when no other call is running
    /// on it; returns `nil` without running it otherwise. Jobs enqueued meanwhile (a task the
    /// call started) run after it on this thread too, up to a drain's worth, before this
    /// returns; any left go to the global queue.
    func runIfIdle<Result>(_ body: () throws -> Result) rethrows -> Result? {
        let acquired = state.withLock { state -> Bool in
            guard !state.isRunning else { return false }
            state.isRunning = true
            meter?.contextBecameBusy()
            return true
        }
        guard acquired else { return nil }
        return try runAcquired(body)
    }

    /// Runs `call` on this thread as the actor's current call when no other call is running on
    /// it, then, like ``runIfIdle(_:)``, what was queued meanwhile; returns `true` then.
    /// Otherwise queues `call` behind the work waiting for the actor and returns `false`: the
    /// thread that ends the call running now runs it (a drain of the global queue, when that
    /// thread cannot), with no task made for it.
    func runOrQueue(_ call: @escaping @Sendable () -> Void) -> Bool {
        let acquired = state.withLock { state -> Bool in
            guard !state.isRunning else {
                state.jobs.append(.call(call))
                return false
            }
            state.isRunning = true
            meter?.contextBecameBusy()
            return true
        }
        guard acquired else { return false }
        runAcquired(call)
        return true
    }

    /// Runs `body` as the actor's current call on this thread, which has just marked the actor
    /// running; then what was queued meanwhile, up to a drain's worth (the rest goes to the
    /// global queue), unless `body` asked for a hold.
    private func runAcquired<Result>(_ body: () throws -> Result) rethrows -> Result {
        beginRun()
        defer {
            endRun()
            if !finishRun(), release() { drain() }
        }
        return try body()
    }

    /// Keeps the actor once the call running now ends: no other call runs on it (jobs wait,
    /// ``runIfIdle(_:)`` declines) until ``endHold(_:)``. No thread is held meanwhile. Call it
    /// from the actor's current call.
    func holdAfterCurrentCall() {
        state.withLock { $0.hold = .requested }
    }

    /// Ends a hold of ``holdAfterCurrentCall()``: `body` runs as the actor's next call, then the
    /// work that waited. It runs on this thread, or, when the call that asked for the hold is
    /// still running, on that call's thread as soon as it ends. Of the work that waited, the
    /// synchronous calls at its head run on this thread too; jobs go to the global queue.
    func endHold(_ body: @escaping @Sendable () -> Void) {
        let runsHere = state.withLock { state -> Bool in
            if case .kept = state.hold {
                state.hold = .none
                return true
            }
            state.hold = .ended(body)
            return false
        }
        guard runsHere else { return }
        beginRun()
        body()
        endRun()
        if !finishRun(), release() { drain(callsOnly: true) }
    }

    /// Called on the thread of a run that just ended: runs an end of hold that came during the
    /// run; returns `true` when the actor is to be kept (a hold was asked for), in which case
    /// the thread must leave it marked running and stop.
    private func finishRun() -> Bool {
        while true {
            let (pending, kept) = state.withLock { state -> ((@Sendable () -> Void)?, Bool) in
                switch state.hold {
                case .none: return (nil, false)
                case .requested, .kept:
                    state.hold = .kept
                    return (nil, true)
                case .ended(let body):
                    state.hold = .none
                    return (body, false)
                }
            }
            guard let pending else { return kept }
            beginRun()
            pending()
            endRun()
        }
    }

    /// How many jobs and queued calls wait for the actor.
    var waitingWorkCount: Int {
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

    /// Runs what waits for the actor, up to a drain's worth; the rest gets a drain of the global
    /// queue. With `callsOnly`, runs only the synchronous calls at the head of the queue: a drain
    /// of the global queue runs what is left from the first job on.
    private func drain(callsOnly: Bool = false) {
        let executor = asUnownedSerialExecutor()
        for _ in 0..<Self.jobsPerDrain {
            switch next(callsOnly: callsOnly) {
            case .work(let work):
                run(work, on: executor)
                if finishRun() { return }
            case .idle:
                return
            case .jobFirst:
                scheduleDrain()
                return
            }
        }
        // Still running: the rest of the queue gets a drain of its own, after other work.
        if release() { scheduleDrain() }
    }

    private func run(_ work: Work, on executor: UnownedSerialExecutor) {
        beginRun()
        switch work {
        case .job(let job): job.runSynchronously(isolatedTo: executor, taskExecutor: asUnownedTaskExecutor())
        case .call(let call): call()
        }
        endRun()
    }

    private func beginRun() {
        _ = runningThread.exchange(Self.currentThread, ordering: .acquiring)
    }

    private func endRun() {
        runningThread.store(0, ordering: .releasing)
    }

    /// What a drain takes next.
    private enum Next {
        /// Work to run, taken off the queue.
        case work(Work)
        /// Nothing: the queue is empty, and the actor is marked idle.
        case idle
        /// A job, left queued (asked for calls only); the actor stays marked running.
        case jobFirst
    }

    private func next(callsOnly: Bool) -> Next {
        state.withLock { state -> Next in
            guard state.head < state.jobs.count else {
                state.jobs.removeAll(keepingCapacity: state.jobs.capacity <= 64)
                state.head = 0
                state.isRunning = false
                meter?.contextBecameIdle()
                return .idle
            }
            let work = state.jobs[state.head]
            if callsOnly, case .job = work { return .jobFirst }
            state.head += 1
            return .work(work)
        }
    }

    /// Ends a run: marks the actor idle when no job waits; `true` when jobs wait (the actor
    /// stays marked running, for the drain the caller schedules).
    private func release() -> Bool {
        state.withLock { state -> Bool in
            if state.head < state.jobs.count { return true }
            state.jobs.removeAll(keepingCapacity: state.jobs.capacity <= 64)
            state.head = 0
            state.isRunning = false
            meter?.contextBecameIdle()
            return false
        }
    }

    private static var currentThread: UInt {
        UInt(pthread_self())
    }
}
