import MVVMCore
import MVVMHTTP
import MVVMJSON
import Synchronization

/// One HTTP session: a context (its view models and navigation) and the bookkeeping that
/// keeps it alive: when it was last used and how many requests are parked on it.
final class Session: Sendable {
    let id: String
    let context: ContextActor
    /// The context's board, kept here so that reading a document touches only this session.
    let board: PublicationBoard
    let parkedRequests = Atomic<Int>(0)
    private let lastUse: Atomic<UInt64>

    init(id: String, context: ContextActor, now: UInt64) {
        self.id = id
        self.context = context
        board = context.board
        lastUse = Atomic(now)
    }

    /// Milliseconds of the monotonic clock at the last request.
    var lastUsed: UInt64 {
        lastUse.load(ordering: .relaxed)
    }

    func touch(_ now: UInt64) {
        // Written only when the millisecond changed: the requests of a busy session, read on
        // every polling thread, then share the value's cache line instead of taking it in turn.
        if lastUse.load(ordering: .relaxed) != now {
            lastUse.store(now, ordering: .relaxed)
        }
    }

    /// Ends the session once it has left the table: first answers every request parked on it
    /// (410, by closing its board), then unloads its view models. In the other order, the
    /// unloading would be published to the parked requests as a new version.
    func end() async {
        board.close()
        await context.close()
    }
}
