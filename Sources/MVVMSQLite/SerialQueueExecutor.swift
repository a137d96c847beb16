import Dispatch

/// A task executor that runs its jobs one at a time, in the order they came, on a serial
/// dispatch queue of its own, off Swift's shared pool: what runs on it may wait for the disk.
final class SerialQueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    /// An executor over a new serial queue named `label`.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
