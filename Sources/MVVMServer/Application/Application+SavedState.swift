import Foundation
import MVVMCore
import MVVMHTTP
import MVVMSQLite

/// Saving sessions in the state store, and serving saved ones again after a restart.
extension Application {
    /// Opens the state store the configuration names (none when it names no file).
    /// - Throws: `StateStoreError` naming the file and its problem.
    func openStateStore() throws {
        guard let file = configuration.stateFile else { return }
        try stateStore.withLock { store in
            guard store == nil else { return }
            store = try SQLiteStateStore(path: file, synchronous: configuration.stateFullSync ? .full : .normal)
        }
    }

    /// Closes the state store, once every commit handed to it is done.
    func closeStateStore() {
        let store = stateStore.withLock { store in
            defer { store = nil }
            return store
        }
        store?.close()
    }

    /// The open state store, if any.
    var savedSessions: (any StateStore)? {
        stateStore.withLock { $0 }
    }

    /// Runs a synchronous call that changes a session on its context (see
    /// ``onContext(_:_:_:_:)``); with a state store, the answer is sent once the session as the
    /// call left it is committed, or is a 503 when the commit fails.
    func onContextSaving(_ session: Session, _ routed: RoutedRequest, _ responder: Responder, _ body: @escaping @Sendable (isolated ContextActor) throws -> HTTPResponse?) {
        guard let store = savedSessions else {
            onContext(session.context, routed, responder, body)
            return
        }
        onContext(session.context, routed, responder) { context in
            guard let response = try body(context) else { return nil }
            let complete = session.needsCompleteSave.exchange(false, ordering: .relaxed)
            let used = session.lastUsed
            let saved = context.savedSession(createdAt: session.createdAt, lastUsed: WallClock.milliseconds, complete: complete)
            store.commit([.save(saved)]) { result in
                responder.answer(Self.afterCommit(result, response, of: session, used: used))
            }
            return nil
        }
    }

    /// Commits the session as it is now (from a task; see ``run(_:_:)``), then gives `response`,
    /// or a 503 when the commit fails.
    func saving(_ session: Session, answering response: HTTPResponse) async -> HTTPResponse {
        guard let store = savedSessions else { return response }
        let complete = session.needsCompleteSave.exchange(false, ordering: .relaxed)
        let used = session.lastUsed
        let saved = await session.context.savedSession(createdAt: session.createdAt, lastUsed: WallClock.milliseconds, complete: complete)
        let result = await withCheckedContinuation { continuation in
            store.commit([.save(saved)]) { continuation.resume(returning: $0) }
        }
        return Self.afterCommit(result, response, of: session, used: used)
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
        for (session, used) in touched where session.savedUse.load(ordering: .relaxed) < used {
            session.savedUse.store(used, ordering: .relaxed)
        }
    }

    /// Forgets saved sessions that are gone (evicted or expired); nobody waits for it.
    func forgetSaved(_ ids: [String]) {
        guard let store = savedSessions, !ids.isEmpty else { return }
        store.commit(ids.map { .delete(id: $0) }) { _ in }
    }

    /// The saved session under `id`, made live again: its context is made with versions
    /// starting after the saved ones and shows the saved navigation; its other view models are
    /// made on first use. `nil` when nothing is saved under `id`, or it has expired meanwhile
    /// (it is then forgotten).
    func restoreSession(_ id: String) -> Session? {
        guard let store = savedSessions, let saved = try? store.session(id) else { return nil }
        let idle = Int64(configuration.sessionIdleSeconds * 1000)
        guard WallClock.milliseconds - saved.lastUsed <= idle else {
            forgetSaved([id])
            return nil
        }
        let session = makeSession(id: id, createdAt: saved.createdAt, firstVersion: saved.version)
        // The file holds it: its saves are its changes from now on.
        session.needsCompleteSave.store(false, ordering: .relaxed)
        // A new context is idle: the restore runs here, at once.
        _ = session.context.runIfIdle { $0.restore(saved) }
        switch sessions.insertIfAbsent(session, capacity: configuration.maxSessions, now: now) {
        case .failure:
            return nil
        case .success(let outcome):
            if let evicted = outcome.evicted {
                metrics.evictedSessions.increment()
                forgetSaved([evicted.id])
                Task { await evicted.end() }
            }
            if outcome.session !== session { Task { await session.end() } }
            return outcome.session
        }
    }

    /// A session's context and bookkeeping, not yet in the table.
    func makeSession(id: String, createdAt: Int64 = WallClock.milliseconds, firstVersion: UInt64 = 0) -> Session {
        var sessionLogger = logger
        sessionLogger[metadataKey: "session"] = .string(SessionID.redacted(id))
        let context = ContextActor(id: id, catalogue: catalogue, dependencies: dependencies, logger: sessionLogger, eventCapacity: configuration.eventHistory,
                                   navigationDocument: NavigationDocument.writer(sessionID: id), firstVersion: firstVersion)
        return Session(id: id, context: context, now: now, createdAt: createdAt)
    }

    /// The answer once a commit is done; after a failure, the session's next save writes it whole.
    private static func afterCommit(_ result: Result<Void, any Error>, _ response: HTTPResponse, of session: Session, used: UInt64) -> HTTPResponse {
        switch result {
        case .success:
            if session.savedUse.load(ordering: .relaxed) < used { session.savedUse.store(used, ordering: .relaxed) }
            return response
        case .failure:
            session.needsCompleteSave.store(true, ordering: .relaxed)
            return HTTPError.unavailable("The change could not be saved; retry shortly.", retryAfterSeconds: 1).response
        }
    }
}
