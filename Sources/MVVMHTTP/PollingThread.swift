import Synchronization

/// The polling thread that called a request's handler, as the handler sees it: work the handler
/// leaves here runs on that thread when it comes back for the request's answer, on its next
/// pass, after it has read the other requests ready on it (or when the handler returns, if it
/// answered at once, and when the request's connection closes first).
///
/// A handler that hands a synchronous call to a context can have it run here instead of on
/// another thread: no hop there and back, no suspended connection, and the answers of a pass
/// leave together (one after another, not spread between the calls' work).
///
/// Not `Sendable`: it belongs to the thread that called the handler, so the compiler keeps it
/// out of work sent elsewhere; and it takes work only while that call lasts.
package struct PollingThread {
    private let lane: LeftWork?

    fileprivate init(lane: LeftWork?) {
        self.lane = lane
    }

    /// No polling thread: the handler was called by something else (a test, the in-process
    /// router), and ``leave(_:)`` takes nothing.
    package static var none: PollingThread {
        PollingThread(lane: nil)
    }

    /// The thread's number: polling threads are numbered 1, 2, 3… in the order they first
    /// called a handler, so that two alive at once have different numbers (0 for ``none``).
    package var number: Int {
        lane?.number ?? 0
    }

    /// Queues `work` on this polling thread; returns `false`, and queues nothing, when there
    /// is no polling thread or its call of the handler has returned.
    package func leave(_ work: @escaping () -> Void) -> Bool {
        guard let lane, lane.isAccepting else { return false }
        lane.items.append(work)
        return true
    }
}

// Exclusivity of its fields is not checked at run time (@exclusivity(unchecked)): each polling
// thread has its own, and `runQueued` takes the items out before running any of them.
/// The work left on one polling thread; each polling thread has its own, reached only by it.
final class LeftWork {
    @exclusivity(unchecked) fileprivate var isAccepting = false
    @exclusivity(unchecked) fileprivate var items: [() -> Void] = []
    /// The thread's ``PollingThread/number``.
    fileprivate let number = LeftWork.threadsNumbered.add(1, ordering: .relaxed).newValue

    /// How many polling threads have been numbered.
    private static let threadsNumbered = Atomic<Int>(0)

    /// Each polling thread's work.
    private static let perThread = PerThread<LeftWork>()

    /// Calls a handler with the calling polling thread accepting work from it.
    static func accepting<Result>(_ handler: (PollingThread) -> Result) -> Result {
        let lane = perThread.current(orMake: LeftWork.init)
        lane.isAccepting = true
        defer { lane.isAccepting = false }
        return handler(PollingThread(lane: lane))
    }

    /// The ``PollingThread/number`` of the calling thread, 0 when it is not a polling thread.
    static var currentThreadNumber: Int {
        perThread.existing?.number ?? 0
    }

    /// Runs the work left on the calling thread, in the order it was left.
    static func runQueued() {
        guard let lane = perThread.existing, !lane.items.isEmpty else { return }
        let items = lane.items
        lane.items.removeAll(keepingCapacity: true)
        for work in items { work() }
    }
}
