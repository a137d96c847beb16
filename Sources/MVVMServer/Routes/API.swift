import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMSupport

/// The HTTP API: its routes, each a named function that returns its reply, grouped by
/// resource (`SessionRoutes.swift`, `SceneRoutes.swift`, `NavigationRoutes.swift`,
/// `SystemRoutes.swift`), and the steps they share: finding the session, reading a JSON body,
/// answering a published document.
final class API: Sendable {
    let configuration: ApplicationConfiguration
    let sessions: Sessions
    let saved: SavedStateCoordinator
    let metrics: Metrics
    /// What `/health`, `/`, `/scenes` and `/openapi.yaml` report.
    let facts: ServerFacts
    /// The test clock and the work meter, in testing mode; the `/testing` routes exist then only.
    let testing: TestingMode?

    /// The API over `sessions` and their saved state, configured by `configuration`.
    init(
        configuration: ApplicationConfiguration, sessions: Sessions, saved: SavedStateCoordinator, metrics: Metrics, facts: ServerFacts,
        testing: TestingMode? = nil
    ) {
        self.testing = testing
        self.configuration = configuration
        self.sessions = sessions
        self.saved = saved
        self.metrics = metrics
        self.facts = facts
    }

    /// The routes, in the order they are matched.
    var router: Router {
        var router = Router()
        addSystemRoutes(to: &router)
        addSessionRoutes(to: &router)
        addSceneRoutes(to: &router)
        addNavigationRoutes(to: &router)
        addSettleRoutes(to: &router)
        if let testing {
            addClockRoutes(to: &router, testing: testing)
            addRecreateRoutes(to: &router, testing: testing)
            addJournalRoutes(to: &router)
            addReplayRoutes(to: &router, testing: testing)
            addInspectorRoutes(to: &router)
        }
        return router
    }

    /// The live session named by the `id` path parameter. The request counts as a use of it,
    /// unless it is an observer's read (``isObserversRead(_:)``).
    /// - Throws: 404 or 410 when there is none; ``ReplyInstead`` with the reply that takes it
    ///   over from the state store, when one is open and the id is not known here.
    func liveSession(_ routed: RoutedRequest) throws -> Session {
        let id = routed["id"]
        guard SessionID.isWellFormed(id) else {
            throw HTTPError(.sessionNotFound, detail: "No session has this id.")
        }
        switch sessions.lookup(id, isUse: !Self.isObserversRead(routed.request)) {
        case .live(let session):
            return session
        case .gone:
            throw HTTPError(.sessionGone, detail: "The session was deleted or expired; create a new one.")
        case .unknown:
            guard let store = saved.store else { throw HTTPError(.sessionNotFound, detail: "No session has this id.") }
            throw ReplyInstead(reply: saved.adoptThenRoute(id, routed.request, store: store))
        }
    }

    /// Whether `request` is a GET marked with `MVVM-Observer`: a tool watching the session (the
    /// inspector) whose reads leave the session's last use, and so its idle time and expiry, to
    /// its clients.
    static func isObserversRead(_ request: HTTPRequest) -> Bool {
        request.method == "GET" && request.header(RequestHeaderField.observer) != nil
    }

    /// The reply with a document just read from the session's board as its topic's current one,
    /// which the server may send again to later plain reads of the same path (no query, no
    /// `If-None-Match`) while the document is still current: the board not closed (the session
    /// not deleted or expired), the topic not published again or removed. Each reuse counts as a
    /// use of the session, as a request through the router does.
    func published(_ document: PublicationBoard.Document, of session: Session) -> Reply {
        // The board and the session's use, not the session: a kept answer must not keep a
        // deleted session's context and view models alive until its slot is reused.
        let board = session.board
        let use = session.use
        return .reusable(
            Documents.response(document),
            whileCurrent: {
                guard board.isStillCurrent(document) else { return false }
                use.touch(MonotonicClock.milliseconds)
                return true
            })
    }

    /// A request's `body` as a JSON object; an empty body is `[:]` when `allowEmpty`.
    func jsonObject(_ body: Data, allowEmpty: Bool) throws(HTTPError) -> [String: JSONValue] {
        // Parsed first: a body that holds a value (the usual case) is read once.
        guard let value = StrictJSON.parse(body) else {
            if StrictJSON.isBlank(body) {
                // No body at all stands for no members; white space alone is no JSON text.
                if allowEmpty, body.isEmpty { return [:] }
                throw HTTPError(.badRequest, detail: "The body must be a JSON object.")
            }
            throw HTTPError(.malformedJSON, detail: "The body is not well-formed JSON (or nests too deeply).")
        }
        guard let object = value.objectValue else {
            throw HTTPError(.badRequest, detail: "The body must be a JSON object, not \(value.typeName == "array" ? "an" : "a") \(value.typeName).")
        }
        return object
    }

    /// How long a request asks the server to wait for its work (`wait`, in seconds, cut to the
    /// configuration's cap); `absent` when it does not say.
    /// - Throws: 400 naming a malformed `wait` (or `since`).
    func waitParameter(_ routed: RoutedRequest, absent: Duration) throws(HTTPError) -> Duration {
        try PollParameters(routed.request.query, maxWait: configuration.maxWaitSeconds).wait ?? absent
    }

    /// The longest wait the configuration allows, for requests that wait as long as they may
    /// unless told otherwise.
    var longestWait: Duration {
        .seconds(configuration.maxWaitSeconds)
    }

    /// What a GET of a versioned document asks for: the live session, the long-poll
    /// parameters (`wait` cut to the configuration's cap), and a stream when it asks for one.
    /// - Throws: as ``liveSession(_:)``; 400 naming a malformed `since`, `wait` or `Last-Event-ID`.
    func documentRead(_ routed: RoutedRequest) throws -> (session: Session, poll: PollParameters, stream: StreamRequest?) {
        let session = try liveSession(routed)
        let poll = try PollParameters(routed.request.query, maxWait: configuration.maxWaitSeconds)
        return (session, poll, try StreamRequest(routed.request, poll: poll))
    }
}
