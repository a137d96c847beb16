import Foundation
import MVVMCore
import MVVMHTTP

/// The last uses of sessions, and the sessions that are gone: expired or evicted.
extension SavedStateCoordinator {
    /// Saves the last use of every session read since it was last saved, so that after a restart
    /// its expiry counts from that use. Returns when committed.
    func persistUses() async {
        guard let store else { return }
        let monotonicNow = sessions.now
        let wallNow = WallClock.milliseconds
        let touched = sessions.table.all.compactMap { session -> (Session, UInt64)? in
            let used = session.lastUsed
            return used > session.savedUse.load(ordering: .relaxed) ? (session, used) : nil
        }
        guard !touched.isEmpty else { return }
        let changes = touched.map { session, used in
            SessionChange.touch(id: session.id, lastUsed: wallNow - Int64(monotonicNow > used ? monotonicNow - used : 0))
        }
        do {
            try await store.commit(changes)
        } catch {
            logger.warning("The last uses of sessions could not be saved; the next sweep tries again.", metadata: ["error": "\(error)"])
            return
        }
        for (session, used) in touched { session.noteSaved(use: used) }
    }

    /// Ends the sessions idle for too long: forgets them in the store, saves the last uses of
    /// the others, then ends them. The application's session sweeper calls it.
    func sweep() async {
        let expired = sessions.removeExpired()
        forget(expired.map(\.id))
        await persistUses()
        for session in expired {
            await session.end()
        }
    }

    /// Ends a session evicted to make room for another: counted, forgotten by the store, ended.
    func evicted(_ session: Session) {
        metrics.evictedSessions.increment()
        forget([session.id])
        sessions.end(session)
    }

    /// Forgets saved sessions that are gone (evicted or expired), as a piece of the
    /// application's work that nobody waits for.
    func forget(_ ids: [String]) {
        guard let store, !ids.isEmpty else { return }
        work.start { [logger] in
            do {
                try await store.commit(ids.map { .delete(id: $0) })
            } catch {
                logger.warning(
                    "Sessions that are gone could not be removed from the state store.", metadata: ["error": "\(error)", "count": "\(ids.count)"])
            }
        }
    }
}
