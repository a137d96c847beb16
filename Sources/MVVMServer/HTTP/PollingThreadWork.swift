import Foundation

/// Work that a request's handler leaves to the polling thread that called it, done when that
/// thread comes back for the request's answer: on its next pass, after it has read the other
/// requests ready on this one (or when the handler returns, if it answered at once, and when the
/// request's connection closes first).
///
/// A handler that hands a synchronous call to a context can have it run here instead of on
/// another thread: no hop there and back, no suspended connection, and the answers of a pass
/// leave together (one after another, not spread between the calls' work).
enum PollingThreadWork {
    /// What one polling thread holds.
    private final class Queue {
        var isAccepting = false
        var items: [() -> Void] = []
    }

    /// Queues `work` on the polling thread running the current handler; returns `false`, and
    /// queues nothing, when the caller is not a handler called by a polling thread.
    static func queue(_ work: @escaping () -> Void) -> Bool {
        guard let queue = queues.existing, queue.isAccepting else { return false }
        queue.items.append(work)
        return true
    }

    /// Calls a handler with this thread accepting work from it (the polling thread's side).
    static func accepting<Result>(_ handler: () -> Result) -> Result {
        let queue = queues.current(orMake: Queue.init)
        queue.isAccepting = true
        defer { queue.isAccepting = false }
        return handler()
    }

    /// Runs the work queued on this thread, in the order it was queued.
    static func runQueued() {
        guard let queue = queues.existing, !queue.items.isEmpty else { return }
        let items = queue.items
        queue.items.removeAll(keepingCapacity: true)
        for work in items { work() }
    }

    /// Each polling thread's queue.
    private static let queues = PerThread<Queue>()
}
