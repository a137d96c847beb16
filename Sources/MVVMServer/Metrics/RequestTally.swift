import Synchronization

/// The answers and context calls one polling thread counted since they were last added to the
/// shared counters and timers, which it hands over a batch at a time: the shared ones (a
/// timer's histogram is behind a lock) are then written by the metrics' recorder, one batch
/// after the other, instead of by every polling thread for every request.
///
/// Each polling thread has a tally of its own (by its number); its lock is taken by that thread,
/// and by an export, which adds every tally's batch first: an export counts every answer
/// reported before it.
final class RequestTally: Sendable {
    /// One answer: its route's index (-1 for none), its status, its duration.
    struct Answer: Sendable {
        let route: Int
        let status: Int
        let nanoseconds: UInt64
    }

    /// What was counted since the last batch was added.
    struct Batch {
        var answers: [Answer] = []
        var contextCallsOnPollingThread = 0
    }

    /// Answers counted before a batch is added.
    static let batchSize = 64

    private let batch: Mutex<Batch>
    /// Room after the lock, so that two tallies made one after the other do not share a cache
    /// line.
    private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    /// An empty tally.
    init() {
        var empty = Batch()
        empty.answers.reserveCapacity(Self.batchSize)
        batch = Mutex(empty)
    }

    /// Counts an answer; when that fills the batch, `add` hands the batch over, under the tally's
    /// lock.
    func count(_ answer: Answer, add: (borrowing Batch) -> Void) {
        batch.withLock { batch in
            batch.answers.append(answer)
            if batch.answers.count >= Self.batchSize { Self.empty(&batch, into: add) }
        }
    }

    /// Counts a context call run on the polling thread.
    func countContextCall() {
        batch.withLock { $0.contextCallsOnPollingThread += 1 }
    }

    /// Has `add` add what was counted (for an export), under the tally's lock.
    func flush(add: (borrowing Batch) -> Void) {
        batch.withLock { Self.empty(&$0, into: add) }
    }

    private static func empty(_ batch: inout Batch, into add: (borrowing Batch) -> Void) {
        add(batch)
        batch.answers.removeAll(keepingCapacity: true)
        batch.contextCallsOnPollingThread = 0
    }
}
