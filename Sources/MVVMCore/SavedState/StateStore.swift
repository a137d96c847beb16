/// Where sessions are saved so that they survive a restart of the server: an embedded SQLite
/// file by default (`MVVMSQLite`), another database beside it.
///
/// Every change is handed over with a completion; the completion is called once the change is
/// committed (durable as the store's settings make it), or with the error that kept it from
/// being committed. Changes handed over together, or while a commit is running, may be
/// committed together. A store is used from any thread.
package protocol StateStore: Sendable {
    /// The session saved under `id`, or `nil` when there is none.
    func session(_ id: String) throws -> SavedSession?

    /// Commits changes, then calls `completion` (on a thread of the store's).
    func commit(_ changes: [SessionChange], completion: @escaping @Sendable (Result<Void, any Error>) -> Void)

    /// How many sessions are saved.
    func sessionCount() throws -> Int

    /// Commits what is pending, then releases the store (its file and its lock).
    func close()
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
