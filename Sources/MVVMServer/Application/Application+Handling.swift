import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMSupport

/// The pieces every route shares: finding the session, running work on its context,
/// reading JSON bodies and answering long-polls.
extension Application {
    /// The live session named by the `id` path parameter; otherwise answers 404 or 410 and
    /// returns `nil`. (Returned rather than passed to a closure, which would copy the request.)
    func liveSession(_ routed: RoutedRequest, _ responder: Responder) -> Session? {
        let id = routed["id"]
        guard SessionID.isWellFormed(id) else {
            responder.answer(HTTPError(.sessionNotFound, detail: "No session has this id."))
            return nil
        }
        switch sessions.lookup(id, now: now) {
        case .live(let session): return session
        case .gone: responder.answer(HTTPError(.sessionGone, detail: "The session was deleted or expired; create a new one."))
        case .unknown:
            if let store = savedSessions {
                adoptThenRoute(id, routed.request, responder, store: store)
            } else {
                responder.answer(HTTPError(.sessionNotFound, detail: "No session has this id."))
            }
        }
        return nil
    }

    /// Answers with a document just read from the session's board as its topic's current one,
    /// and lets the server send the same answer again to later plain reads of the same path (no
    /// query, no `If-None-Match`) while the document is still current: the board not closed
    /// (the session not deleted or expired), the topic not published again or removed. Each
    /// reuse counts as a use of the session, as a request through the router does.
    func answerPublished(_ document: PublicationBoard.Document, of session: Session, _ responder: Responder) {
        // The board and the session's use, not the session: a kept answer must not keep a
        // deleted session's context and view models alive until its slot is reused.
        let board = session.board
        let use = session.use
        responder.answer(Self.documentResponse(document), reusableWhile: {
            guard board.isStillCurrent(document) else { return false }
            use.touch(MonotonicClock.milliseconds)
            return true
        })
    }

    /// Runs work off the polling thread as its own task (the connection is parked meanwhile)
    /// and answers with its result, or with the problem its error maps to. For work that may
    /// wait (a view model's action); a synchronous call on a context goes through
    /// ``onContext(_:_:_:_:)``.
    func run(_ responder: Responder, _ work: @escaping @Sendable () async throws -> HTTPResponse?) {
        let started = self.work.start {
            do {
                if let response = try await work() { responder.answer(response) }
            } catch {
                responder.answer(HTTPError.from(error))
            }
        }
        if !started { responder.answer(HTTPError.unavailable("The server is stopping.")) }
    }

    /// Runs a synchronous call on a context and answers with its result, or with the problem
    /// its error maps to. A call that returns `nil` has handed the responder on (to a
    /// long-poll) and answers it itself.
    ///
    /// Called by a handler on a polling thread, the call is left to that thread: it runs there
    /// on the thread's next pass when the context is idle then (no thread hop, no parked
    /// connection; the tasks the call started on the context, such as a new scene's load, run
    /// there right after it, until they suspend, before the answer leaves). When the context is
    /// busy then, the call waits in the context's queue and runs on the thread that ends the
    /// call before it (``ContextActor/runOrQueue(_:)``). Called elsewhere, it goes to the
    /// application's few draining tasks, which enter the context's actor: the body cannot
    /// suspend, so a drainer waits at most for the context to finish the call it is in.
    func onContext(_ context: ContextActor, _ routed: RoutedRequest, _ responder: Responder, _ body: @escaping @Sendable (isolated ContextActor) throws -> HTTPResponse?) {
        let thread = routed.thread.number
        let left = routed.thread.leave { [self] in
            if context.runOrQueue({ context in Self.answer(responder) { try body(context) } }) {
                metrics.countContextCallOnPollingThread(thread: thread)
            } else {
                metrics.contextCallsQueued.increment()
            }
        }
        if !left { handOff(context, responder, body) }
    }

    private func handOff(_ context: ContextActor, _ responder: Responder, _ body: @escaping @Sendable (isolated ContextActor) throws -> HTTPResponse?) {
        metrics.contextCallsQueued.increment()
        let submitted = contextCalls.submit {
            await context.run { context in Self.answer(responder) { try body(context) } }
        }
        if !submitted { responder.answer(HTTPError.unavailable("The server is stopping.")) }
    }

    /// Answers with the work's response, or with the problem its error maps to; no answer when
    /// it returns `nil`.
    private static func answer(_ responder: Responder, _ work: () throws -> HTTPResponse?) {
        do {
            if let response = try work() { responder.answer(response) }
        } catch {
            responder.answer(HTTPError.from(error))
        }
    }

    /// The body as a JSON object; an empty body is `[:]` when `allowEmpty`.
    func jsonObject(_ request: HTTPRequest, allowEmpty: Bool) throws(HTTPError) -> [String: JSONValue] {
        // Parsed first: a body that holds a value (the usual case) is read once.
        guard let value = StrictJSON.parse(request.body) else {
            if StrictJSON.isBlank(request.body) {
                // No body at all stands for no members; white space alone is no JSON text.
                if allowEmpty, request.body.isEmpty { return [:] }
                throw HTTPError(.badRequest, detail: "The body must be a JSON object.")
            }
            throw HTTPError(.malformedJSON, detail: "The body is not well-formed JSON (or nests too deeply).")
        }
        guard let object = value.objectValue else {
            throw HTTPError(.badRequest, detail: "The body must be a JSON object, not \(value.typeName == "array" ? "an" : "a") \(value.typeName).")
        }
        return object
    }

    /// Answers a versioned document now, or parks the request until a newer one is published
    /// or its wait runs out (then it answers the current document).
    func poll(_ session: Session, _ topic: PublicationBoard.Topic, _ poll: PollParameters, current: PublicationBoard.Document, responder: Responder, render: @escaping @Sendable (PublicationBoard.Document) -> HTTPResponse) {
        guard let since = poll.since, let wait = poll.wait, wait > .zero, since == current.version else {
            responder.answer(render(current))
            return
        }
        let board = session.board
        guard let release = reserveParking(for: session) else {
            responder.answer(HTTPError.capacity("Too many requests are parked; retry shortly."))
            return
        }
        // A session handed over to another server goes on there: the current document, not a 410.
        let answer: @Sendable (PublicationBoard.WaitOutcome, _ gone: String) -> Void = { outcome, gone in
            release()
            switch outcome {
            case .newer(let document): responder.answer(render(document))
            case .closed where board.wasHandedOver: responder.answer(render(current))
            case .closed: responder.answer(HTTPError(.sessionGone, detail: gone))
            case .timedOut, .cancelled: responder.answer(render(current))
            }
        }
        let registration = board.waitForNewer(than: since, on: topic) { outcome in
            answer(outcome, "The session was deleted while this request waited.")
        }
        switch registration {
        case .immediate(let outcome):
            answer(outcome, "The session was deleted.")
        case .waiting(let token):
            let metrics = self.metrics
            responder.setDeadline(after: wait) {
                if board.cancel(token) {
                    release()
                    metrics.expiredLongPolls.increment()
                }
                return render(board.document(topic) ?? current)
            }
        }
    }

    /// Takes a parked request's place on the session and in all; returns what gives it back
    /// (to call once), or `nil`, taking none, beyond either cap.
    func reserveParking(for session: Session) -> (@Sendable () -> Void)? {
        let perSession = session.parkedRequests.add(1, ordering: .relaxed).newValue
        let total = parkedTotal.add(1, ordering: .relaxed).newValue
        let release: @Sendable () -> Void = { [weak self] in
            session.parkedRequests.subtract(1, ordering: .relaxed)
            self?.parkedTotal.subtract(1, ordering: .relaxed)
        }
        guard perSession <= configuration.maxParkedPerSession, total <= configuration.maxParkedTotal else {
            release()
            return nil
        }
        return release
    }
}

/// The long-poll parameters of a GET: `since` (a version) and `wait` (seconds).
struct PollParameters: Sendable {
    init(since: UInt64?, wait: Duration?) {
        self.since = since
        self.wait = wait
    }

    var since: UInt64?
    var wait: Duration?

    /// Parses `since` and `wait`; a malformed one is a 400 naming it; `wait` is cut to `maxWait`.
    init(_ query: [String: String], maxWait: Double) throws(HTTPError) {
        if query.isEmpty { return }
        if let text = query["since"] {
            guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = UInt64(text) else {
                throw HTTPError(.invalidParameter, detail: "'since' must be a whole number from 0 to 18446744073709551615.", member: "since")
            }
            since = value
        }
        if let text = query["wait"] {
            guard text.utf8.count <= 32, let seconds = Double(text), seconds.isFinite, seconds >= 0,
                  text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E }) else {
                throw HTTPError(.invalidParameter, detail: "'wait' must be a number of seconds, 0 or more.", member: "wait")
            }
            // A cap that is not a sensible number of seconds (negative, NaN, or so large that the
            // milliseconds overflow) is treated as the nearest sensible one: no setting can trap.
            let cap = maxWait.isNaN ? 0 : min(max(maxWait, 0), 1e9)
            wait = .milliseconds(Int64(min(seconds, cap) * 1000))
        }
    }
}
