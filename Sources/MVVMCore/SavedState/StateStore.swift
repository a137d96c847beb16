/// Where sessions are saved so that they survive a restart of the server: an embedded SQLite
/// file by default (`MVVMSQLite`), or a PostgreSQL database that several servers share
/// (`MVVMPostgres`).
///
/// Every method is `async`. ``commit(each:)`` returns once the commits it was given are done
/// (durable as the store's settings make them), with each one's outcome: committed, or the
/// error that kept it from being committed (``SessionHandedOverError`` when another server took
/// its session over). Commits handed over together, or while others are being written, may be
/// written together. A store is used from any task.
package protocol StateStore: Sendable {
    /// What the store is, for `/health`: `sqlite` or `postgres`.
    var kind: String { get }

    /// Does the store's background work until the calling task is cancelled: with a shared
    /// database, hearing that another server took over a session this one holds, which it
    /// reports through `handedOver` with the session's id.
    func run(handedOver: @escaping @Sendable (String) -> Void) async

    /// Connects and brings the store's schema to this server's version; called once
    /// ``run(handedOver:)`` runs, before the store is used.
    /// - Throws: an error naming the store and its problem (unreachable, newer schema).
    func prepare() async throws

    /// Takes the session saved under `id` over for this server and reads it: its fence is
    /// raised (``SavedSession/fence``), so that whoever held it before can no longer write it.
    /// `nil` when nothing is saved under `id`.
    func adopt(_ id: String) async throws -> SavedSession?

    /// The session saved under `id`, or `nil` when there is none; takes nothing over.
    func session(_ id: String) async throws -> SavedSession?

    /// Commits several commits' changes; returns each commit's outcome, in order, once all are
    /// done. A commit whose session another server holds now fails alone, with
    /// ``SessionHandedOverError``; a failure of the store (a full disk, a lost connection)
    /// fails them all. Cancelling the calling task does not withdraw them.
    func commit(each commits: [[SessionChange]]) async -> [Result<Void, any Error>]

    /// How many sessions are saved.
    func sessionCount() async throws -> Int

    /// Whether the store answers now.
    func isReachable() async -> Bool

    /// Commits what is pending, then releases the store (its file and lock, or its connections).
    func close() async

    /// The executor ``commit(each:)`` writes on, when the store has one of its own: a task
    /// that prefers it (`withTaskExecutorPreference`) commits without changing threads. `nil`
    /// when commits run anywhere.
    var commitExecutor: (any TaskExecutor)? { get }
}

extension StateStore {
    /// No executor of its own: commits run on the caller's.
    package var commitExecutor: (any TaskExecutor)? { nil }

    /// Commits changes; returns once they are committed (see ``commit(each:)``).
    /// - Throws: the error that kept them from being committed; ``SessionHandedOverError``
    ///   when another server holds their session now.
    package func commit(_ changes: [SessionChange]) async throws {
        for outcome in await commit(each: [changes]) { try outcome.get() }
    }
}

/// One change to the saved sessions.
package enum SessionChange: Sendable, Equatable {
    /// The session is saved as it is now (its previous save is replaced).
    case save(SavedSession)
    /// The session is gone: deleted, evicted or expired.
    case delete(id: String)
    /// The session was used (read) since it was last saved: its last use, in milliseconds since
    /// 1970, so that its expiry counts from there after a restart.
    case touch(id: String, lastUsed: Int64)
}

/// A change was refused because another server took the session over (its fence is higher
/// than the one this server holds): this server must let the session go.
package struct SessionHandedOverError: Error, CustomStringConvertible, Sendable {
    /// The session's id.
    package let id: String

    /// Makes the error.
    package init(id: String) {
        self.id = id
    }

    /// What happened, in one sentence.
    package var description: String {
        "The session is now held by another server; this server's change was refused."
    }
}
