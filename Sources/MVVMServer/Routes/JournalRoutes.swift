import Foundation
import MVVMHTTP
import MVVMJSON

/// `GET /sessions/{id}/journal` (testing mode): the requests that changed a session, as JSON or
/// as a shell script that replays them with curl.
extension API {
    func addJournalRoutes(to router: inout Router) {
        router.add("GET", "/sessions/{id}/journal") { [self] routed in try journal(routed) }
    }

    /// `GET …/journal`: `{"session", "dropped", "entries"}`; with `?format=curl`, a POSIX shell
    /// script that replays the entries on a new session of the server its first argument names.
    func journal(_ routed: RoutedRequest) throws -> Reply {
        let session = try liveSession(routed)
        let format = routed.request.query["format"] ?? "json"
        guard format == "json" || format == "curl" else {
            throw HTTPError(.invalidParameter, detail: "format must be json or curl, not \(format.prefix(32)).", member: "format")
        }
        guard format == "curl" else {
            let journal = session.journal ?? SessionJournal()
            return .response(.json(journal.exportedDocument(session: session.id), headers: [("Cache-Control", "no-store")]))
        }
        let (entries, dropped) = session.journal?.export ?? ([], 0)
        let document = JournalDocument(session: session.id, dropped: dropped, capacity: SessionJournal.capacity, entries: entries)
        return .response(
            HTTPResponse(
                status: 200, headers: [("Content-Type", "text/x-shellscript; charset=utf-8"), ("Cache-Control", "no-store")],
                body: Data(CurlScript(document).text.utf8)))
    }
}

/// A session's journal as `GET /sessions/{id}/journal` exports it, and as `POST /replays`
/// takes it.
struct JournalDocument: Codable {
    /// The id of the session recorded.
    var session: String
    /// How many of the oldest entries were dropped to keep the bound.
    var dropped: Int
    /// The most entries a session keeps.
    var capacity: Int?
    /// The entries, oldest first.
    var entries: [SessionJournal.Entry]
}
