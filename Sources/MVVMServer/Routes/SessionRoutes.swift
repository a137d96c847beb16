import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON

/// `POST /sessions`, `GET|DELETE /sessions/{id}` and `DELETE /sessions/{id}/store`.
extension API {
    func addSessionRoutes(to router: inout Router) {
        router.add("POST", "/sessions") { [self] _ in try createSession() }
        router.add("GET", "/sessions/{id}") { [self] routed in try readSession(routed) }
        router.add("DELETE", "/sessions/{id}") { [self] routed in try deleteSession(routed) }
        router.add("DELETE", "/sessions/{id}/store", journaled { [self] routed in try clearStore(routed) })
    }

    /// `POST /sessions`: a new session showing the root scene, saved before the 201.
    func createSession() throws -> Reply {
        let id = SessionID.make()
        let session = sessions.make(id: id)
        if let evicted = try sessions.insert(session) { saved.evicted(evicted) }
        return saved.savingOnContext(session) { context in
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

    /// `GET /sessions/{id}`: the navigation and the store's entries, of the same moment.
    func readSession(_ routed: RoutedRequest) throws -> Reply {
        let session = try liveSession(routed)
        return .onContext(session.context) { context in
            // The navigation as the session publishes it (with paths), read on the context
            // with the entries, so that both are of the same moment.
            let summary = context.summary()
            let catalogue = context.catalogue
            let entries = try JSONCoding.encode(
                SessionSummaryDocument(id: summary.id, entries: summary.entries.filter { catalogue.isAddressable(sceneNamed: $0.scene) }))
            let navigation = session.board.document(.navigation)?.body ?? Data("null".utf8)
            return .response(.json(StateDocument.adding("navigation", navigation, to: entries), headers: [("Cache-Control", "no-store")]))
        }
    }

    /// `DELETE /sessions/{id}`: 204 once the deletion is saved.
    func deleteSession(_ routed: RoutedRequest) throws -> Reply {
        saved.deleting(try liveSession(routed))
    }

    /// `DELETE /sessions/{id}/store`: every view model unloads; 204 once saved.
    func clearStore(_ routed: RoutedRequest) throws -> Reply {
        saved.savingOnContext(try liveSession(routed)) { context in
            context.clearStore()
            return SavedStateCoordinator.noContent
        }
    }
}

/// `GET /sessions/{id}` without its navigation, which is spliced in as published:
/// `{"entries", "id", "navigation"}`.
struct SessionSummaryDocument: Encodable {
    let id: String
    let entries: [ContextSummary.Entry]
}
