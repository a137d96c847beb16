import Foundation
import MVVMHTTP
import MVVMSupport

/// `GET /inspector` (testing mode): a page that shows the sessions and their view models live,
/// and drives them through the public routes; and `GET /testing/sessions`, the list it reads.
extension API {
    func addInspectorRoutes(to router: inout Router) {
        let assets = InspectorAssets.load()
        router.add("GET", "/inspector") { routed in
            if let session = routed.request.query["session"], !SessionID.isWellFormed(session) {
                throw HTTPError(.invalidParameter, detail: "session must be a session's id.", member: "session")
            }
            return Self.asset(assets.page, type: "text/html")
        }
        router.add("GET", "/inspector/inspector.js") { _ in Self.asset(assets.script, type: "text/javascript") }
        router.add("GET", "/inspector/inspector.css") { _ in Self.asset(assets.styles, type: "text/css") }
        router.add("GET", "/testing/sessions") { [self] _ in .response(.json(encoding: sessionList(), headers: [("Cache-Control", "no-store")])) }
    }

    /// A file of the page, with the policy that forbids inline script.
    private static func asset(_ body: Data, type: String) -> Reply {
        .response(
            HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", type),
                    ("Content-Security-Policy", InspectorAssets.contentSecurityPolicy),
                    ("X-Content-Type-Options", "nosniff"),
                    ("Cache-Control", "no-store"),
                ], body: body))
    }

    /// The live sessions, the most recently used first.
    private func sessionList() -> SessionList {
        let now = sessions.now
        let wall = WallClock.milliseconds
        let entries = sessions.table.all.map { session in (session: session, lastUsed: session.lastUsed) }
        let list = entries.sorted { $0.lastUsed > $1.lastUsed }.map { entry in
            SessionList.Entry(
                id: entry.session.id, createdAt: entry.session.createdAt,
                ageSeconds: Double(max(0, wall - entry.session.createdAt)) / 1000,
                idleSeconds: Double(now > entry.lastUsed ? now - entry.lastUsed : 0) / 1000)
        }
        return SessionList(sessions: list)
    }
}

/// The answer of `GET /testing/sessions`.
struct SessionList: Encodable {
    struct Entry: Encodable {
        /// The session's id.
        let id: String
        /// When it was made, in milliseconds since 1970.
        let createdAt: Int64
        /// Seconds since it was made.
        let ageSeconds: Double
        /// Seconds since its last request.
        let idleSeconds: Double
    }

    let sessions: [Entry]
}
