import Synchronization

/// When a session was last used. The answers the runtime keeps for a session's documents hold
/// this, not the session, to count their reuses as uses: a session deleted or expired is
/// released at once, with its context and view models, whatever answers are still kept.
final class SessionUse: Sendable {
    private let lastUse: Atomic<UInt64>

    init(_ now: UInt64) {
        lastUse = Atomic(now)
    }

    /// Milliseconds of the monotonic clock at the last use.
    var lastUsed: UInt64 {
        lastUse.load(ordering: .relaxed)
    }

    /// Records a use at `now`.
    func touch(_ now: UInt64) {
        // Written only when the millisecond changed: the requests of a busy session, read on
        // every polling thread, then share the value's cache line instead of taking it in turn.
        if lastUse.load(ordering: .relaxed) != now {
            lastUse.store(now, ordering: .relaxed)
        }
    }
}
