import Dispatch
import Synchronization

/// Counts the view-model work that is running or ready to run, in testing mode: the contexts
/// that are busy (running a call or a job, holding, or with work queued) and the jobs of the
/// tasks those contexts start. When the count is zero, every task of that work is suspended:
/// waiting for the test clock, for another process, or ended.
///
/// A context counts from the moment its executor marks it running to the moment it marks it
/// idle; a job of its tasks counts from its enqueueing on ``taskExecutor`` to the end of its
/// run. Work that makes other work counts the new work before it stops counting itself, so the
/// count does not pass through zero while work goes on.
package final class WorkMeter: Sendable {
    private let count: WorkCount

    /// The executor the tasks of metered contexts prefer: loads, view-model tasks and the
    /// child tasks they make run their nonisolated code on it.
    package let taskExecutor: MeteredTaskExecutor

    /// A meter at zero.
    package init() {
        count = WorkCount()
        taskExecutor = MeteredTaskExecutor(count: count)
    }

    /// Whether no metered work is running or ready to run.
    package var isQuiet: Bool {
        count.value.load(ordering: .acquiring) == 0
    }

    /// Notes that a context became busy.
    func contextBecameBusy() {
        count.value.add(1, ordering: .relaxed)
    }

    /// Notes that a context became idle.
    func contextBecameIdle() {
        count.value.subtract(1, ordering: .releasing)
    }
}

/// The count a ``WorkMeter`` and its executor share.
final class WorkCount: Sendable {
    let value = Atomic<Int>(0)
}

/// The task executor of a ``WorkMeter``: runs jobs on the global queue, as the default
/// executor does, and counts each from its enqueueing to the end of its run.
package final class MeteredTaskExecutor: TaskExecutor, Sendable {
    private let count: WorkCount

    init(count: WorkCount) {
        self.count = count
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        count.value.add(1, ordering: .relaxed)
        DispatchQueue.global().async { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
            count.value.subtract(1, ordering: .releasing)
        }
    }
}
