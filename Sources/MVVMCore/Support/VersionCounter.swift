import Synchronization

/// One monotonic counter per context: every version and event sequence number comes from
/// it, so a key's version never goes backwards, even when its view model is made again.
package final class VersionCounter: Sendable {
    private let value: Atomic<UInt64>

    /// Starts counting after `start`.
    package init(start: UInt64 = 0) {
        value = Atomic(start)
    }

    /// The next number (the first call returns `start + 1`).
    package func next() -> UInt64 {
        value.add(1, ordering: .relaxed).newValue
    }

    /// The last number handed out.
    package var current: UInt64 {
        value.load(ordering: .relaxed)
    }
}
