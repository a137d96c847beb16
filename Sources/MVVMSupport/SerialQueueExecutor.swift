import Dispatch

/// A task executor that runs its jobs one at a time, in the order they came, on a serial
/// dispatch queue of its own, off Swift's shared pool: what runs on it may wait for the disk.
package final class SerialQueueExecutor: TaskExecutor {
    private let queue: DispatchQueue
    private let marker = DispatchSpecificKey<ObjectIdentifier>()

    /// An executor over a new serial queue named `label`.
    package init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: marker, value: ObjectIdentifier(self))
    }

    /// Whether the caller runs on this executor's queue.
    package var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker) == ObjectIdentifier(self)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
