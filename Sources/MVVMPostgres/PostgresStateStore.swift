// Built with the PostgreSQL trait only (Package.swift): without it, this module is empty and
// postgres-nio is not built.
#if PostgreSQL
    import Foundation
    import Logging
    import MVVMCore
    import PostgresNIO
    import Synchronization

    /// Sessions saved in a PostgreSQL database that several servers share, through postgres-nio.
    ///
    /// Each session is held by one server at a time. A server takes a session over
    /// (``adopt(_:)``) by raising its fence; from then on every write of the session is
    /// conditional on the fence the writer holds, so a server that lost the session can no longer
    /// change it (its commit fails with ``SessionHandedOverError``). The takeover is announced on
    /// the `mvvm_handover` channel (LISTEN/NOTIFY), so that the server that held the session lets
    /// it go at once.
    ///
    /// Commits are grouped: the changes handed over while a batch is written go together into the
    /// next one, on the store's writer task, which sends each batch in one statement.
    package final class PostgresStateStore: StateStore {
        private struct Pending {
            var items: [(changes: [SessionChange], completion: @Sendable (Result<Void, any Error>) -> Void)] = []
            var isWriting = false
            var idleWaiters: [CheckedContinuation<Void, Never>] = []
        }

        /// The database, without its password.
        package let location: String
        private let client: PostgresClient
        private let locationDetails: PostgresLocation
        private let logger: Logger
        /// The server's name, written as the owner of the sessions it holds.
        private let owner: String
        /// Tells this store's own announcements from other servers'.
        private let token = UUID().uuidString
        /// The fence this server holds for each session it made or took over.
        private let fences = Mutex<[String: Int64]>([:])
        private let pending = Mutex(Pending())
        private let writerWake: AsyncStream<Void>.Continuation
        private let writerSignals: AsyncStream<Void>

        /// The channel of the takeover announcements.
        static let channel = "mvvm_handover"

        /// A store for the database at `url`, for the server named `instance`; nothing is connected
        /// until ``run(handedOver:)`` runs and ``prepare()`` is called.
        /// - Throws: ``PostgresStoreError`` when `url` is not a PostgreSQL URL.
        package init(url: String, instance: String, logger: Logger) throws {
            guard let location = PostgresLocation(url: url) else {
                throw PostgresStoreError(location: url, problem: "it is not a URL of the form postgres://USER@HOST:PORT/DATABASE")
            }
            locationDetails = location
            self.location = location.redacted
            self.logger = logger
            owner = instance
            client = PostgresClient(
                configuration: location.clientConfiguration,
                backgroundLogger: Logger(label: "mvvm-postgres", factory: { _ in SwiftLogNoOpLogHandler() }))
            (writerSignals, writerWake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        }

        package var kind: String { "postgres" }

        /// Runs the connections, the writer and the listener for takeovers until the calling task
        /// is cancelled.
        package func run(handedOver: @escaping @Sendable (String) -> Void) async {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.client.run() }
                group.addTask { await self.writeWhenSignalled() }
                group.addTask { await self.listen(handedOver: handedOver) }
                await group.waitForAll()
            }
        }

        /// Connects and brings the schema to this server's version, within five seconds.
        /// - Throws: ``PostgresStoreError`` when the database cannot be reached in time or its
        ///   schema is newer.
        package func prepare() async throws {
            let timeout = Duration.seconds(5)
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await PostgresSchema.migrate(self.client, location: self.locationDetails, logger: self.logger) }
                    group.addTask {
                        try await Task.sleep(for: timeout)
                        throw PostgresStoreError(location: self.location, problem: "it did not answer within \(timeout)")
                    }
                    try await group.next()
                    group.cancelAll()
                }
            } catch let error as PostgresStoreError {
                throw error
            } catch {
                throw PostgresStoreError(location: location, problem: "\(String(reflecting: error))")
            }
        }

        package func adopt(_ id: String) async throws -> SavedSession? {
            let saved = try await client.withTransaction(logger: logger) { connection -> SavedSession? in
                var raised = false
                for try await _ in try await connection.query(
                    "UPDATE mvvm_session SET fence = fence + 1, owner = \(owner) WHERE id = \(id) RETURNING 1", logger: logger)
                {
                    raised = true
                }
                guard raised else { return nil }
                // Delivered when the transaction commits.
                try await connection.query("SELECT pg_notify(\(Self.channel), \(token + " " + id))", logger: logger)
                return try await PostgresSessionRows.read(id, on: connection, logger: logger)
            }
            if let saved { fences.withLock { $0[id] = saved.fence } }
            return saved
        }

        package func session(_ id: String) async throws -> SavedSession? {
            try await client.withConnection { connection in
                try await PostgresSessionRows.read(id, on: connection, logger: self.logger)
            }
        }

        package func sessionCount() async throws -> Int {
            var count = 0
            for try await value in try await client.query("SELECT count(*) FROM mvvm_session", logger: logger).decode(Int.self) { count = value }
            return count
        }

        package func isReachable() async -> Bool {
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { (try? await self.client.query("SELECT 1", logger: self.logger)) != nil }
                group.addTask {
                    try? await Task.sleep(for: .seconds(1))
                    return false
                }
                let reachable = await group.next() ?? false
                group.cancelAll()
                return reachable
            }
        }

        /// Each commit is an item of the writer's batch, fenced on its own.
        package func commit(each commits: [[SessionChange]]) async -> [Result<Void, any Error>] {
            guard !commits.isEmpty else { return [] }
            return await withCheckedContinuation { (written: CheckedContinuation<[Result<Void, any Error>], Never>) in
                let outcomes = CommitOutcomes(count: commits.count) { written.resume(returning: $0) }
                let items = commits.enumerated().map { index, changes in
                    (changes: changes, completion: { @Sendable (result: Result<Void, any Error>) in outcomes.record(result, at: index) })
                }
                pending.withLock { $0.items.append(contentsOf: items) }
                writerWake.yield()
            }
        }

        /// Waits until every commit handed over is done.
        package func close() async {
            await withCheckedContinuation { continuation in
                let idle = pending.withLock { pending in
                    guard pending.items.isEmpty, !pending.isWriting else {
                        pending.idleWaiters.append(continuation)
                        return false
                    }
                    return true
                }
                if idle { continuation.resume() }
            }
        }

        /// The writer: commits everything pending in one transaction whenever signalled, then again
        /// while more came meanwhile.
        private func writeWhenSignalled() async {
            for await _ in writerSignals {
                while true {
                    let batch = pending.withLock { pending in
                        let batch = pending.items
                        pending.items.removeAll()
                        pending.isWriting = !batch.isEmpty
                        return batch
                    }
                    guard !batch.isEmpty else { break }
                    await write(batch)
                }
                let waiters = pending.withLock { pending in
                    defer { pending.idleWaiters.removeAll() }
                    return pending.items.isEmpty ? pending.idleWaiters : []
                }
                for waiter in waiters { waiter.resume() }
            }
        }

        /// Commits a batch in one statement (``PostgresChangeBatch``); a commit whose session
        /// another server holds now is left out of it and fails with ``SessionHandedOverError``.
        private func write(_ batch: [(changes: [SessionChange], completion: @Sendable (Result<Void, any Error>) -> Void)]) async {
            let held = fences.withLock { $0 }
            var results: [Result<Void, any Error>] = batch.map { _ in .success(()) }
            do {
                let json = try PostgresChangeBatch(batch.map(\.changes), fence: { held[$0] }).json()
                var made: [String] = []
                let rows = try await client.query("SELECT batch_item, outcome, outcome_id FROM mvvm_apply(\(json)::jsonb, \(owner))", logger: logger)
                for try await (item, outcome, id) in rows.decode((Int, String, String).self) {
                    if outcome == "made" {
                        made.append(id)
                    } else if results.indices.contains(item) {
                        results[item] = .failure(SessionHandedOverError(id: id))
                    }
                }
                fences.withLock { fences in
                    for id in made where fences[id] == nil { fences[id] = 0 }
                    for (item, result) in zip(batch, results) {
                        for case .delete(let id) in item.changes { fences[id] = nil }
                        if case .failure(let error as SessionHandedOverError) = result { fences[error.id] = nil }
                    }
                }
            } catch {
                logger.warning("A commit to the state database failed.", metadata: ["error": "\(String(reflecting: error))"])
                results = batch.map { _ in .failure(error) }
            }
            pending.withLock { $0.isWriting = false }
            for (item, result) in zip(batch, results) { item.completion(result) }
        }

        /// Lets go of the sessions other servers take over, as they announce it; listens again a
        /// second after losing the connection, until the calling task is cancelled.
        private func listen(handedOver: @escaping @Sendable (String) -> Void) async {
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            for try await notification in notifications {
                                let parts = notification.payload.split(separator: " ", maxSplits: 1)
                                guard parts.count == 2, parts[0] != self.token else { continue }
                                let id = String(parts[1])
                                if self.fences.withLock({ $0.removeValue(forKey: id) }) != nil { handedOver(id) }
                            }
                        }
                    }
                } catch {
                    if Task.isCancelled { return }
                    logger.debug("Listening for session takeovers failed; listening again.", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
    /// The outcomes of the commits of one ``PostgresStateStore/commit(each:)``, gathered as the
    /// writer reports them; `done` gets them all, in order, once the last is in.
    private final class CommitOutcomes: Sendable {
        private let state: Mutex<(results: [Result<Void, any Error>?], left: Int)>
        private let done: @Sendable ([Result<Void, any Error>]) -> Void

        init(count: Int, done: @escaping @Sendable ([Result<Void, any Error>]) -> Void) {
            state = Mutex((Array(repeating: nil, count: count), count))
            self.done = done
        }

        /// Records the outcome of the commit at `index`; the last one calls `done`.
        func record(_ result: Result<Void, any Error>, at index: Int) {
            let all: [Result<Void, any Error>]? = state.withLock { state in
                state.results[index] = result
                state.left -= 1
                return state.left == 0 ? state.results.compactMap { $0 } : nil
            }
            if let all { done(all) }
        }
    }
#endif
