import Foundation
import MVVMCore
import MVVMHTTP

/// Serving saved sessions again: after a restart, or after another server of a cluster held
/// them; and letting go of those another server took over.
extension SavedStateCoordinator {
    /// The reply to a request for a session this server does not hold: takes the session over
    /// from the state store (once, for all the requests that name it meanwhile), then routes
    /// the request again; 404 when nothing is saved under the id, 503 when the store cannot be
    /// read.
    func adoptThenRoute(_ id: String, _ request: HTTPRequest, store: any StateStore) -> Reply {
        .later { [self] handle in
            let retry: @Sendable (Adoption) -> Void = { [self] adoption in
                switch adoption {
                case .live:
                    guard let reroute = reroute.withLock({ $0 }) else {
                        handle.answer(ReplyDelivery.stopping)
                        return
                    }
                    reroute(request, handle.responder)
                case .unknown:
                    handle.answer(HTTPError(.sessionNotFound, detail: "No session has this id."))
                case .failed:
                    handle.answer(HTTPError.unavailable("The session's saved state cannot be read now; retry shortly.", retryAfterSeconds: 1))
                }
            }
            let isFirst = adoptions.withLock { waiting in
                waiting[id, default: []].append(retry)
                return waiting[id]?.count == 1
            }
            guard isFirst else { return }
            let started = work.start { [self] in
                let adoption = await adopt(id, from: store)
                for waiter in adoptions.withLock({ $0.removeValue(forKey: id) ?? [] }) { waiter(adoption) }
            }
            if !started {
                for waiter in adoptions.withLock({ $0.removeValue(forKey: id) ?? [] }) { waiter(.failed) }
            }
        }
    }

    /// Takes the session saved under `id` over and makes it live again (see ``restore(_:)``).
    private func adopt(_ id: String, from store: any StateStore) async -> Adoption {
        if case .live = sessions.lookup(id) { return .live }
        do {
            guard let saved = try await store.adopt(id) else { return .unknown }
            guard restore(saved) != nil else { return .unknown }
            metrics.adoptedSessions.increment()
            return .live
        } catch {
            logger.warning("A saved session could not be read from the state store.", metadata: ["error": "\(error)"])
            return .failed
        }
    }

    /// A saved session made live again: its context is made with versions starting after every
    /// one it may have given (``SavedSession/firstVersion``) and shows the saved navigation; its
    /// other view models are made on first use. `nil` when it has expired meanwhile (it is
    /// then forgotten) or every session is busy.
    func restore(_ saved: SavedSession) -> Session? {
        guard WallClock.milliseconds - saved.lastUsed <= idleMilliseconds else {
            forget([saved.id])
            return nil
        }
        let session = sessions.make(id: saved.id, createdAt: saved.createdAt, firstVersion: saved.firstVersion)
        // The store holds it: its saves are its changes from now on.
        session.needsCompleteSave.store(false, ordering: .relaxed)
        // A new context is idle: the restore runs here, at once.
        _ = session.context.runIfIdle { $0.restore(saved) }
        guard let outcome = sessions.insertRestored(session) else { return nil }
        if let evictedSession = outcome.evicted { evicted(evictedSession) }
        return outcome.session
    }

    /// Lets go of a session another server took over (its id, as the state store heard it).
    func letGo(_ id: String) {
        guard case .live(let session) = sessions.lookup(id) else { return }
        letGo(session)
    }

    /// Lets go of a session another server took over: it leaves the table with no tombstone
    /// (a later request here takes it over again), its parked requests are answered with what
    /// they have (their clients ask again, and reach its new holder), its streams end, and its
    /// view models are cleared.
    func letGo(_ session: Session) {
        guard sessions.table.release(session) else { return }
        metrics.handedOverSessions.increment()
        sessions.end(session, handedOver: true)
    }
}
