import MVVMCore
import Synchronization

/// One HTTP session: a context (its view models and navigation) and the bookkeeping that
/// keeps it alive: when it was last used and how many requests are parked on it.
final class Session: Sendable {
    let id: String
    let context: ContextActor
    /// The context's board, kept here so that reading a document touches only this session.
    let board: PublicationBoard
    let parkedRequests = Atomic<Int>(0)
    /// When the session was last used; kept answers share it, not the session.
    let use: SessionUse
    /// When the session was made, in milliseconds since 1970 (kept across restarts).
    let createdAt: Int64
    /// Whether the next save must write the whole session (a new session, or one whose last
    /// commit failed) rather than what changed since the previous save.
    let needsCompleteSave = Atomic<Bool>(true)
    /// The last use (monotonic milliseconds) the state file has, through a save or a touch.
    let savedUse: Atomic<UInt64>
    /// What testing mode keeps for the session; `nil` otherwise.
    let testing: Testing?

    /// What testing mode keeps for a session (a class: one reference in every session, `nil`
    /// outside testing mode).
    final class Testing: Sendable {
        /// The requests that changed the session, and the moves of its clock.
        let journal: SessionJournal
        /// The session's own clock: what its work waits on.
        let clock: ManualClock
        /// Counts the session's work that is running or ready to run.
        let meter: WorkMeter

        init(journal: SessionJournal, clock: ManualClock, meter: WorkMeter) {
            self.journal = journal
            self.clock = clock
            self.meter = meter
        }
    }

    /// The requests that changed the session, in testing mode; `nil` otherwise.
    var journal: SessionJournal? {
        testing?.journal
    }

    init(id: String, context: ContextActor, now: UInt64, createdAt: Int64 = WallClock.milliseconds, testing: Testing? = nil) {
        self.id = id
        self.testing = testing
        self.context = context
        board = context.board
        use = SessionUse(now)
        savedUse = Atomic(now)
        self.createdAt = createdAt
    }

    /// Records that the state file has the session's use at `used` (monotonic milliseconds);
    /// an earlier use than the one recorded changes nothing.
    func noteSaved(use used: UInt64) {
        var recorded = savedUse.load(ordering: .relaxed)
        while recorded < used {
            let (exchanged, original) = savedUse.compareExchange(expected: recorded, desired: used, ordering: .relaxed)
            if exchanged { return }
            recorded = original
        }
    }

    /// Milliseconds of the monotonic clock at the last request.
    var lastUsed: UInt64 {
        use.lastUsed
    }

    func touch(_ now: UInt64) {
        use.touch(now)
    }

    /// Ends the session once it has left the table: first answers every request parked on it
    /// (410, by closing its board; with what they have when the session was `handedOver` to
    /// another server), then unloads its view models. In the other order, the unloading would
    /// be published to the parked requests as a new version.
    func end(handedOver: Bool = false) async {
        board.close(handedOver: handedOver)
        await context.close()
    }
}
