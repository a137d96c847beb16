import Foundation
import MVVMCore
import MVVMHTTP

/// Saving sessions in the state store, and serving saved ones again after a restart, or after
/// another server of a cluster held them.
extension Application {
    /// Closes the state store, once every commit handed to it is done.
    func closeStateStore() async {
        let store = stateStore.withLock { store in
            defer { store = nil }
            return store
        }
        await store?.close()
    }

    /// The open state store, if any.
    package var savedSessions: (any StateStore)? {
        stateStore.withLock { $0 }
    }

    /// Runs a synchronous call that changes a session on its context (see
    /// ``onContext(_:_:_:_:)``). With a state store, what the call publishes is held (see
    /// ``PublicationBoard/hold()``) and the context waits while the session as the call left
    /// it is committed; then the change is published and `body`'s answer sent, or, when the
    /// commit fails, the change is undone and the answer is a 503.
    func onContextSaving(_ session: Session, _ routed: RoutedRequest, _ responder: Responder, _ body: @escaping @Sendable (isolated ContextActor) throws -> HTTPResponse?) {
        guard let store = savedSessions else {
            onContext(session.context, routed, responder, body)
            return
        }
        onContext(session.context, routed, responder) { [self] context in
            guard !session.board.isClosed else { throw HTTPError(.sessionGone, detail: "The session was deleted.") }
            session.board.hold()
            let response: HTTPResponse?
            do {
                response = try body(context)
            } catch {
                session.board.releaseHold()
                throw error
            }
            guard let response else {
                session.board.releaseHold()
                return nil
            }
            let saved = exportHolding(session, context)
            store.commit([.save(saved)]) { [self] result in
                finishSave(result, saved, of: session, store: store) { responder.answer($0 ? response : Self.saveFailed) }
            }
            return nil
        }
    }

    /// Runs `change` (a view model's action, which may wait) with the session's board held, then
    /// commits the session as it left it: `change`'s answer once committed, a 503 (the change
    /// undone) when the commit fails. Without a state store, just runs `change`.
    func saving(_ session: Session, _ change: @Sendable () async throws -> HTTPResponse) async throws -> HTTPResponse {
        guard let store = savedSessions else { return try await change() }
        guard !session.board.isClosed else { throw HTTPError(.sessionGone, detail: "The session was deleted.") }
        session.board.hold()
        let response: HTTPResponse
        do {
            response = try await change()
        } catch {
            session.board.releaseHold()
            throw error
        }
        let saved = await session.context.run { context in exportHolding(session, context) }
        let committed = await withCheckedContinuation { continuation in
            store.commit([.save(saved)]) { [self] result in
                finishSave(result, saved, of: session, store: store) { continuation.resume(returning: $0) }
            }
        }
        return committed ? response : Self.saveFailed
    }

    /// The answer to a change that could not be saved.
    private static var saveFailed: HTTPResponse {
        HTTPError.unavailable("The change could not be saved; nothing changed. Retry shortly.", retryAfterSeconds: 1).response
    }

    /// The session as it is to be saved now; the context then stays held until ``finishSave``.
    private func exportHolding(_ session: Session, _ context: isolated ContextActor) -> SavedSession {
        let complete = session.needsCompleteSave.exchange(false, ordering: .relaxed)
        context.holdAfterThisCall()
        return context.savedSession(createdAt: session.createdAt, lastUsed: WallClock.milliseconds, complete: complete)
    }

    /// Ends the hold of a commit: publishes the change when it was committed; otherwise puts the
    /// session back as the state file has it (or ends it, when the file does not have it: a
    /// creation that failed) and drops what the change published. Then calls `done` with
    /// whether the change holds, as part of the context's call that ends the hold.
    private func finishSave(_ result: Result<Void, any Error>, _ saved: SavedSession, of session: Session, store: any StateStore, done: @escaping @Sendable (Bool) -> Void) {
        switch result {
        case .success:
            session.noteSaved(use: session.lastUsed)
            session.context.endHold { _ in
                session.board.releaseHold()
                done(true)
            }
            return
        case .failure(let error as SessionHandedOverError):
            logger.info("A session was taken over by another server; this one lets it go, and its change was answered 503.", metadata: ["error": "\(error)"])
            session.context.endHold { _ in
                Self.dropHeld(of: session)
                done(false)
            }
            letGo(session)
            return
        case .failure(let error):
            logger.warning("A change to a session could not be saved; it was undone and answered 503.", metadata: ["error": "\(error)"])
        }
        session.needsCompleteSave.store(true, ordering: .relaxed)
        // Off the store's writer, which must not read. When nothing runs it (the application
        // stopped), the hold ends with the change kept, to be saved whole by the next commit.
        let started = work.start { [self] in
            let committed: Result<SavedSession?, any Error>
            do { committed = .success(try await store.session(session.id)) } catch { committed = .failure(error) }
            session.context.endHold { [self] context in
                defer { done(false) }
                switch committed {
                case .success(let committed?):
                    context.revert(saved, to: committed)
                    Self.dropHeld(of: session)
                case .success(nil):
                    // Never saved (its creation failed): it goes, unseen.
                    Self.dropHeld(of: session)
                    if sessions.remove(session.id, now: now) != nil { work.start { await session.end() } }
                case .failure(let error):
                    // What was saved cannot be read either: the change stays, to be saved
                    // whole by the next commit that succeeds.
                    logger.error("A session's saved state could not be read to undo a change that failed to save.", metadata: ["error": "\(error)"])
                    session.board.releaseHold()
                }
            }
        }
        if !started {
            session.context.endHold { _ in
                session.board.releaseHold()
                done(false)
            }
        }
    }

    /// Drops what a session published while held, and the events recorded with it.
    private static func dropHeld(of session: Session) {
        session.board.discardHeld()
        session.context.events.discard(after: session.board.document(.events)?.version ?? 0)
    }

    /// Saves the last use of every session read since it was last saved, so that after a restart
    /// its expiry counts from that use; the session sweeper calls it. Returns when committed.
    package func persistUses() async {
        guard let store = savedSessions else { return }
        let monotonicNow = now
        let wallNow = WallClock.milliseconds
        let touched = sessions.all.compactMap { session -> (Session, UInt64)? in
            let used = session.lastUsed
            return used > session.savedUse.load(ordering: .relaxed) ? (session, used) : nil
        }
        guard !touched.isEmpty else { return }
        let changes = touched.map { session, used in
            SessionChange.touch(id: session.id, lastUsed: wallNow - Int64(monotonicNow > used ? monotonicNow - used : 0))
        }
        let result = await withCheckedContinuation { continuation in
            store.commit(changes) { continuation.resume(returning: $0) }
        }
        guard (try? result.get()) != nil else { return }
        for (session, used) in touched { session.noteSaved(use: used) }
    }

    /// Forgets saved sessions that are gone (evicted or expired); nobody waits for it.
    func forgetSaved(_ ids: [String]) {
        guard let store = savedSessions, !ids.isEmpty else { return }
        store.commit(ids.map { .delete(id: $0) }) { _ in }
    }

    /// What became of a request's session taken over from the state store.
    enum Adoption: Sendable {
        /// It is live here now.
        case live
        /// Nothing is saved under its id (or it expired).
        case unknown
        /// The state store could not be read.
        case failed
    }

    /// Serves a request for a session this server does not hold: takes the session over from
    /// the state store (once, for all the requests that name it meanwhile), then routes the
    /// request again; 404 when nothing is saved under the id, 503 when the store cannot be read.
    func adoptThenRoute(_ id: String, _ request: HTTPRequest, _ responder: Responder, store: any StateStore) {
        let retry: @Sendable (Adoption) -> Void = { [self] adoption in
            switch adoption {
            case .live:
                guard let router = activeRouter.withLock({ $0 }) else {
                    responder.answer(HTTPError.unavailable("The server is stopping."))
                    return
                }
                router.handle(request, responder: responder)
            case .unknown:
                responder.answer(HTTPError(.sessionNotFound, detail: "No session has this id."))
            case .failed:
                responder.answer(HTTPError.unavailable("The session's saved state cannot be read now; retry shortly.", retryAfterSeconds: 1))
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

    /// Takes the session saved under `id` over and makes it live again (see ``restore(_:)``).
    private func adopt(_ id: String, from store: any StateStore) async -> Adoption {
        if case .live = sessions.lookup(id, now: now) { return .live }
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
        let id = saved.id
        let idle = Int64(configuration.sessionIdleSeconds * 1000)
        guard WallClock.milliseconds - saved.lastUsed <= idle else {
            forgetSaved([id])
            return nil
        }
        let session = makeSession(id: id, createdAt: saved.createdAt, firstVersion: saved.firstVersion)
        // The store holds it: its saves are its changes from now on.
        session.needsCompleteSave.store(false, ordering: .relaxed)
        // A new context is idle: the restore runs here, at once.
        _ = session.context.runIfIdle { $0.restore(saved) }
        switch sessions.insertIfAbsent(session, capacity: configuration.maxSessions, now: now) {
        case .failure:
            return nil
        case .success(let outcome):
            if let evicted = outcome.evicted { end(evicted: evicted) }
            if outcome.session !== session { work.start { await session.end() } }
            return outcome.session
        }
    }

    /// Lets go of a session another server took over (its id, as the state store heard it).
    func letGo(_ id: String) {
        guard case .live(let session) = sessions.lookup(id, now: now) else { return }
        letGo(session)
    }

    /// Lets go of a session another server took over: it leaves the table with no tombstone
    /// (a later request here takes it over again), its parked requests are answered with what
    /// they have (their clients ask again, and reach its new holder), its streams end, and its
    /// view models are cleared.
    func letGo(_ session: Session) {
        guard sessions.release(session) else { return }
        metrics.handedOverSessions.increment()
        work.start { await session.end(handedOver: true) }
    }

    /// Ends a session evicted to make room for another: counted, forgotten by the state file,
    /// then ended.
    func end(evicted: Session) {
        metrics.evictedSessions.increment()
        forgetSaved([evicted.id])
        work.start { await evicted.end() }
    }

    /// A session's context and bookkeeping, not yet in the table.
    func makeSession(id: String, createdAt: Int64 = WallClock.milliseconds, firstVersion: UInt64 = 0) -> Session {
        let logger = self.logger
        let context = ContextActor(id: id, catalogue: catalogue, dependencies: dependencies, logger: Self.sessionLogger(logger, id: id), eventCapacity: configuration.eventHistory,
                                   navigationDocument: NavigationDocument.writer(sessionID: id), firstVersion: firstVersion)
        return Session(id: id, context: context, now: now, createdAt: createdAt)
    }

    /// The logger of a session's view models: the application's, naming the session (redacted).
    private static func sessionLogger(_ logger: Logger, id: String) -> Logger {
        var sessionLogger = logger
        sessionLogger[metadataKey: "session"] = .string(SessionID.redacted(id))
        return sessionLogger
    }
}
