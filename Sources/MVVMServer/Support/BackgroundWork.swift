import Logging
import Synchronization

/// The work the application starts on its own, outside any request's handler: saving, ending
/// sessions, taking sessions over, answering a request once an action has run. Each piece runs
/// as a child task of ``run(_:)``, which the application's own run (or an in-process run of the
/// testing product) awaits, so no piece of it outlives the application.
///
/// Work is started from any thread with ``start(_:)``, between ``open()`` and the end of
/// ``run(_:)``; at other times nothing is started.
final class BackgroundWork: Sendable {
    /// One piece of work.
    typealias Work = @Sendable () async -> Void

    private let intake = Mutex<AsyncStream<Work>.Continuation?>(nil)
    private let logger: Logger

    /// Work that logs to `logger` when it is started while nothing runs it.
    init(logger: Logger) {
        self.logger = logger
    }

    /// Starts `work` as a child task of the running ``run(_:)``. Returns `false`, and runs
    /// nothing, when the intake is closed (the application is not serving).
    @discardableResult
    func start(_ work: @escaping Work) -> Bool {
        let started = intake.withLock { intake -> Bool in
            guard let intake, case .enqueued = intake.yield(work) else { return false }
            return true
        }
        if !started {
            logger.debug("Work was started while the application does not run; it did not run.")
        }
        return started
    }

    /// Opens the intake: work started from now on is kept for ``run(_:)`` of the pieces this
    /// returns, which the caller runs next. `nil` when the intake is open already (another run).
    func open() -> AsyncStream<Work>? {
        let (pieces, continuation) = AsyncStream.makeStream(of: Work.self)
        let opened = intake.withLock { intake -> Bool in
            guard intake == nil else { return false }
            intake = continuation
            return true
        }
        return opened ? pieces : nil
    }

    /// Runs each of the `pieces` that ``open()`` gave as a child task, until the calling task
    /// is cancelled; then closes the intake, cancels the pieces still running and returns once
    /// every one has ended.
    func run(_ pieces: AsyncStream<Work>) async {
        await withDiscardingTaskGroup { group in
            // Ends when the calling task is cancelled: the stream ends with it.
            for await work in pieces {
                group.addTask { await work() }
            }
            intake.withLock { $0 = nil }
            group.cancelAll()
        }
    }
}
