import Synchronization

/// Counts the view-model work that is running or ready to run, in testing mode: the contexts
/// that are busy (running a call or a job, holding, or with work queued). A context's loads,
/// actions and tasks, and the child tasks they make, run their jobs on its executor, so their
/// work is counted with it. When the count is zero, every task of that work is suspended:
/// waiting for the test clock, for another process, or ended.
///
/// A context counts from the moment its executor marks it running to the moment it marks it
/// idle. Work that makes other work counts the new work before it stops counting itself, so the
/// count does not pass through zero while work goes on.
package final class WorkMeter: Sendable {
    private let count: WorkCount

    /// A meter at zero; the work it counts is counted by `parent` too (a session's meter
    /// counts into the server's).
    package init(parent: WorkMeter? = nil) {
        count = WorkCount(parent: parent?.count)
    }

    /// Whether no metered work is running or ready to run.
    package var isQuiet: Bool {
        count.isZero
    }

    /// Notes that a context became busy.
    func contextBecameBusy() {
        count.increment()
    }

    /// Notes that a context became idle.
    func contextBecameIdle() {
        count.decrement()
    }
}

/// The count of a ``WorkMeter``, passed on to its parent's.
final class WorkCount: Sendable {
    private let value = Atomic<Int>(0)
    private let parent: WorkCount?

    init(parent: WorkCount?) {
        self.parent = parent
    }

    /// Whether nothing is counted.
    var isZero: Bool {
        value.load(ordering: .acquiring) == 0
    }

    /// Counts one more, here and in the parent (the parent first, so that it never reads zero
    /// while this counts work).
    func increment() {
        parent?.increment()
        value.add(1, ordering: .relaxed)
    }

    /// Counts one less, here and in the parent.
    func decrement() {
        value.subtract(1, ordering: .releasing)
        parent?.decrement()
    }
}
