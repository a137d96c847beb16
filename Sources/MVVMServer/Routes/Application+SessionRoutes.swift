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
                if let evicted {
                    metrics.evictedSessions.increment()
                    forgetSaved([evicted.id])
                    Task { await evicted.end() }
                }
            }
            onContextSaving(session, routed, responder) { context in
                try context.showRoot()
                let navigation = context.board.document(.navigation)?.body ?? Data("null".utf8)
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
            guard let removed = sessions.remove(session.id, now: now) else {
                responder.answer(HTTPError(.sessionGone, detail: "The session was deleted."))
                return
            }
            metrics.deletedSessions.increment()
            // As Session.end(): parked requests are answered first (410), then the view
            // models unload on the context, as a call like any other (on this polling thread
            // when the context is idle), and the 204 follows.
            removed.board.close()
            let store = savedSessions
            onContext(removed.context, routed, responder) { context in
                context.close()
                let deleted = HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")])
                guard let store else { return deleted }
                store.commit([.delete(id: removed.id)]) { result in
                    // Gone from memory either way; a failed commit leaves it saved, to be
                    // restored, so the client hears that the deletion did not hold.
                    responder.answer((try? result.get()) != nil ? deleted : HTTPError.unavailable("The deletion could not be saved; retry shortly.").response)
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

/// `GET /sessions/{id}` without its navigation, which is spliced in as published:
/// `{"entries", "id", "navigation"}`.
struct SessionSummaryDocument: Encodable {
    let id: String
    let entries: [ContextSummary.Entry]
}
