import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON

/// `POST /sessions`, `GET|DELETE /sessions/{id}` and `DELETE /sessions/{id}/store`.
extension Application {
    func addSessionRoutes(to router: inout Router) {
        router.add("POST", "/sessions") { [self] routed, responder in
            let id = SessionID.make()
            let session = makeSession(id: id)
            switch sessions.insert(session, capacity: configuration.maxSessions, now: now) {
            case .failure(let error):
                responder.answer(error)
                return
            case .success(let evicted):
                metrics.createdSessions.increment()
                if let evicted { end(evicted: evicted) }
            }
            onContextSaving(session, routed, responder) { context in
                try context.showRoot()
                let navigation = context.board.latestDocument(.navigation)?.body ?? Data("null".utf8)
                var body = JSONBytesWriter(capacity: navigation.count + id.utf8.count + 32)
                body.append(#"{"id":"#)
                body.writeString(id)
                body.append(#","navigation":"#)
                body.append(bytes: navigation)
                body.append("}")
                return .json(Data(body.bytes), status: 201, headers: [("Location", "/sessions/\(id)"), ("Cache-Control", "no-store")])
            }
        }

        router.add("GET", "/sessions/{id}") { [self] routed, responder in
            guard let session = liveSession(routed, responder) else { return }
            onContext(session.context, routed, responder) { context in
                // The navigation as the session publishes it (with paths), read on the context
                // with the entries, so that both are of the same moment.
                let summary = context.summary()
                let entries = try JSONCoding.encode(SessionSummaryDocument(id: summary.id, entries: summary.entries))
                let navigation = session.board.document(.navigation)?.body ?? Data("null".utf8)
                return .json(StateDocument.adding("navigation", navigation, to: entries), headers: [("Cache-Control", "no-store")])
            }
        }

        router.add("DELETE", "/sessions/{id}") { [self] routed, responder in
            guard let session = liveSession(routed, responder) else { return }
            guard let store = savedSessions else {
                deleteSession(session, routed, responder)
                return
            }
            // The deletion is committed first, with the context held so that no save of the
            // session follows it into the file; the session goes once it is committed.
            onContext(session.context, routed, responder) { [self] context in
                context.holdAfterThisCall()
                store.commit([.delete(id: session.id)]) { [self] result in
                    guard case .success = result else {
                        session.context.endHold { _ in
                            responder.answer(HTTPError.unavailable("The deletion could not be saved; nothing changed. Retry shortly."))
                        }
                        // Another server holds the session now: the retry reaches it.
                        if case .failure(let error) = result, error is SessionHandedOverError { letGo(session) }
                        return
                    }
                    session.context.endHold { [self] context in
                        guard sessions.remove(session.id, now: now) != nil else {
                            responder.answer(HTTPError(.sessionGone, detail: "The session was deleted."))
                            return
                        }
                        metrics.deletedSessions.increment()
                        session.board.close()
                        context.close()
                        responder.answer(HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")]))
                    }
                }
                return nil
            }
        }

        router.add("DELETE", "/sessions/{id}/store") { [self] routed, responder in
            guard let session = liveSession(routed, responder) else { return }
            onContextSaving(session, routed, responder) { context in
                context.clearStore()
                return HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")])
            }
        }
    }
}

extension Application {
    /// Deletes a session that no state file holds.
    func deleteSession(_ session: Session, _ routed: RoutedRequest, _ responder: Responder) {
        guard let removed = sessions.remove(session.id, now: now) else {
            responder.answer(HTTPError(.sessionGone, detail: "The session was deleted."))
            return
        }
        metrics.deletedSessions.increment()
        // As Session.end(): parked requests are answered first (410), then the view models
        // unload on the context, as a call like any other (on this polling thread when the
        // context is idle), and the 204 follows.
        removed.board.close()
        onContext(removed.context, routed, responder) { context in
            context.close()
            return HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")])
        }
    }
}

/// `GET /sessions/{id}` without its navigation, which is spliced in as published:
/// `{"entries", "id", "navigation"}`.
struct SessionSummaryDocument: Encodable {
    let id: String
    let entries: [ContextSummary.Entry]
}
