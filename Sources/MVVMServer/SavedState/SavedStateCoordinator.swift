import Foundation
import Logging
import MVVMCore
import MVVMHTTP
import Synchronization

/// Saved state: saving each change of a session in the state store before it is published and
/// answered, forgetting sessions that are gone, and serving saved sessions again after a
/// restart, or after another server of a cluster held them.
///
/// A change is saved in one sequence (``saving(_:_:)``, ``savingOnContext(_:_:)``):
/// 1. the session's board is held, so that nothing the change publishes is seen yet;
/// 2. the change runs on the session's context;
/// 3. the session as the change left it is exported, and the context is held, so that no other
///    call changes it meanwhile;
/// 4. the export is committed to the store, with the other changes that came meanwhile
///    (``SaveCommitter``);
/// 5. committed: the hold ends and the change is published, then answered (2xx);
///    not committed: the change is undone (the view models put back as the store has them),
///    what it published is dropped, the hold ends, and the answer is a 503.
final class SavedStateCoordinator: Sendable {
    /// What became of a request's session taken over from the state store.
    enum Adoption: Sendable {
        /// It is live here now.
        case live
        /// Nothing is saved under its id (or it expired).
        case unknown
        /// The state store could not be read.
        case failed
    }

    let sessions: Sessions
    let metrics: Metrics
    let work: BackgroundWork
    let logger: Logger
    let idleMilliseconds: Int64
    /// The open store, and what writes the changes' commits to it.
    private let opened = Mutex<(store: any StateStore, committer: SaveCommitter)?>(nil)
    /// Routes a request again once the session it names was taken over; `nil` while the
    /// application does not serve.
    let reroute = Mutex<(@Sendable (HTTPRequest, Responder) -> Void)?>(nil)
    /// The requests waiting for a session being taken over from the state store, by its id.
    let adoptions = Mutex<[String: [@Sendable (Adoption) -> Void]]>([:])

    /// The saved state of `sessions`, which expire after `idleSeconds` without a use.
    init(sessions: Sessions, idleSeconds: Double, metrics: Metrics, work: BackgroundWork, logger: Logger) {
        self.sessions = sessions
        idleMilliseconds = Int64(idleSeconds * 1000)
        self.metrics = metrics
        self.work = work
        self.logger = logger
    }

    /// The open state store, if any.
    var store: (any StateStore)? {
        opened.withLock { $0?.store }
    }

    /// Uses `store` from now on, its commits written by a piece of the application's work, and
    /// routes requests for sessions taken over with `reroute`.
    func open(_ store: (any StateStore)?, reroute: @escaping @Sendable (HTTPRequest, Responder) -> Void) {
        if let store {
            let committer = SaveCommitter(store: store)
            committer.setTaking(true)
            if !work.start({ await committer.run() }) { committer.setTaking(false) }
            opened.withLock { $0 = (store, committer) }
        }
        self.reroute.withLock { $0 = reroute }
    }

    /// Stops routing requests again, then closes the store once every commit handed to it is
    /// done.
    func close() async {
        reroute.withLock { $0 = nil }
        let closing = opened.withLock { opened in
            defer { opened = nil }
            return opened
        }
        guard let closing else { return }
        await closing.committer.drained()
        await closing.store.close()
    }

    // MARK: Saving a change

    /// The reply of a synchronous change to a session: `change` runs on the session's context
    /// and its answer is sent once the session as it left it is committed (see the type's
    /// sequence). Without a state store, just runs `change`.
    func savingOnContext(_ session: Session, _ change: @escaping @Sendable (isolated ContextActor) throws -> HTTPResponse) -> Reply {
        guard let (store, committer) = opened.withLock({ $0 }) else {
            return .onContext(session.context) { .response(try change($0)) }
        }
        return .onContext(session.context) { [self] context in
            guard !session.board.isClosed else { throw HTTPError(.sessionGone, detail: "The session was deleted.") }
            session.board.hold()
            let response: HTTPResponse
            do {
                response = try change(context)
            } catch {
                session.board.releaseHold()
                throw error
            }
            let saved = exportHolding(session, context)
            return .later { [self] handle in
                let submitted = committer.submit(
                    .init(changes: [.save(saved)]) { [self] outcome in
                        handle.answer(await finish(saved, of: session, outcome, store: store) ? response : Self.saveFailed)
                    })
                guard !submitted else { return }
                // The application stops: the change stays, unsaved, to be saved whole by the
                // next commit; the holds end.
                session.needsCompleteSave.store(true, ordering: .relaxed)
                session.context.endHold { _ in session.board.releaseHold() }
                handle.answer(ReplyDelivery.stopping)
            }
        }
    }

    /// Runs `change` (a view model's action, which may wait) with the session's board held,
    /// then commits the session as it left it: `change`'s answer once committed, a 503 (the
    /// change undone) when the commit fails. Without a state store, just runs `change`.
    func saving(_ session: Session, _ change: @Sendable () async throws -> HTTPResponse) async throws -> HTTPResponse {
        guard let (store, committer) = opened.withLock({ $0 }) else { return try await change() }
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
        let outcome = await withCheckedContinuation { (committed: CheckedContinuation<Result<Void, any Error>, Never>) in
            let submitted = committer.submit(.init(changes: [.save(saved)]) { committed.resume(returning: $0) })
            if !submitted { committed.resume(returning: .failure(CancellationError())) }
        }
        return await finish(saved, of: session, outcome, store: store) ? response : Self.saveFailed
    }

    /// The reply of a deletion: committed first, with the context held so that no save of the
    /// session follows it into the store; the session goes once it is committed (204).
    func deleting(_ session: Session) -> Reply {
        guard let committer = opened.withLock({ $0?.committer }) else {
            guard let removed = sessions.remove(session.id) else { return .problem(HTTPError(.sessionGone, detail: "The session was deleted.")) }
            metrics.deletedSessions.increment()
            // As Session.end(): parked requests are answered first (410), then the view models
            // unload on the context, as a call like any other, and the 204 follows.
            removed.board.close()
            return .onContext(removed.context) { context in
                context.close()
                return .response(Self.noContent)
            }
        }
        return .onContext(session.context) { [self] context in
            context.holdAfterThisCall()
            return .later { [self] handle in
                let submitted = committer.submit(
                    .init(changes: [.delete(id: session.id)]) { [self] outcome in
                        handle.answer(await finishDeletion(of: session, outcome))
                    })
                guard !submitted else { return }
                session.context.endHold { _ in }
                handle.answer(ReplyDelivery.stopping)
            }
        }
    }

    /// Ends a deletion's hold: the session goes when the deletion was committed (204);
    /// otherwise it stays, and the answer is a 503.
    private func finishDeletion(of session: Session, _ outcome: Result<Void, any Error>) async -> HTTPResponse {
        if case .failure(let error) = outcome {
            await endHold(of: session) { _ in }
            // Another server holds the session now: the retry reaches it.
            if error is SessionHandedOverError { letGo(session) }
            return HTTPError.unavailable("The deletion could not be saved; nothing changed. Retry shortly.").response
        }
        return await endHold(of: session) { [self] context in
            guard sessions.remove(session.id) != nil else { return HTTPError(.sessionGone, detail: "The session was deleted.").response }
            metrics.deletedSessions.increment()
            session.board.close()
            context.close()
            return Self.noContent
        }
    }

    /// Ends a change's holds once its commit's `outcome` is known: publishes the change when
    /// it was committed; otherwise puts the session back as `store` has it (or ends it, when the
    /// store does not have it: a creation that failed) and drops what the change published.
    /// Returns whether the change holds.
    private func finish(_ saved: SavedSession, of session: Session, _ outcome: Result<Void, any Error>, store: any StateStore) async -> Bool {
        do {
            try outcome.get()
            session.noteSaved(use: session.lastUsed)
            await endHold(of: session) { _ in session.board.releaseHold() }
            return true
        } catch let error as SessionHandedOverError {
            logger.info(
                "A session was taken over by another server; this one lets it go, and its change was answered 503.", metadata: ["error": "\(error)"])
            await endHold(of: session) { _ in Self.dropHeld(of: session) }
            letGo(session)
            return false
        } catch {
            logger.warning("A change to a session could not be saved; it was undone and answered 503.", metadata: ["error": "\(error)"])
        }
        session.needsCompleteSave.store(true, ordering: .relaxed)
        let committed: Result<SavedSession?, any Error>
        do { committed = .success(try await store.session(session.id)) } catch { committed = .failure(error) }
        await endHold(of: session) { [self] context in
            switch committed {
            case .success(let committed?):
                context.revert(saved, to: committed)
                Self.dropHeld(of: session)
            case .success(nil):
                // Never saved (its creation failed): it goes, unseen.
                Self.dropHeld(of: session)
                if let removed = sessions.remove(session.id) { sessions.end(removed) }
            case .failure(let error):
                // What was saved cannot be read either: the change stays, to be saved whole by
                // the next commit that succeeds.
                logger.error("A session's saved state could not be read to undo a change that failed to save.", metadata: ["error": "\(error)"])
                session.board.releaseHold()
            }
        }
        return false
    }

    /// The session as it is to be saved now; the context then stays held until ``endHold(of:_:)``.
    private func exportHolding(_ session: Session, _ context: isolated ContextActor) -> SavedSession {
        let complete = session.needsCompleteSave.exchange(false, ordering: .relaxed)
        context.holdAfterThisCall()
        return context.savedSession(createdAt: session.createdAt, lastUsed: WallClock.milliseconds, complete: complete)
    }

    /// Ends the context's hold with `body` as its next call; returns what `body` returned.
    private func endHold<Result: Sendable>(of session: Session, _ body: @escaping @Sendable (isolated ContextActor) -> Result) async -> Result {
        await withCheckedContinuation { ended in
            session.context.endHold { context in ended.resume(returning: body(context)) }
        }
    }

    /// Drops what a session published while held, and the events recorded with it.
    private static func dropHeld(of session: Session) {
        session.board.discardHeld()
        session.context.events.discard(after: session.board.document(.events)?.version ?? 0)
    }

    /// The answer to a change that could not be saved.
    private static var saveFailed: HTTPResponse {
        HTTPError.unavailable("The change could not be saved; nothing changed. Retry shortly.", retryAfterSeconds: 1).response
    }

    /// The answer to a deletion.
    static var noContent: HTTPResponse {
        HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")])
    }
}
