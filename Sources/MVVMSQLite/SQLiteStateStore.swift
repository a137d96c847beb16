import Foundation
import GRDB
import Logging
import MVVMCore
import MVVMSupport

/// Sessions saved in an SQLite file through GRDB: WAL mode, a schema kept by GRDB's
/// `DatabaseMigrator`, and commits written on an executor of the store's own, so that no
/// polling thread nor thread of Swift's shared pool waits on the disk.
///
/// The file is locked while the store is open: a second server on the same file is refused.
package final class SQLiteStateStore: StateStore {
    /// How much a commit waits for the disk.
    package enum Synchronous: String, Sendable, CaseIterable {
        /// `synchronous=NORMAL`: a commit survives a crash of the process; the last commits may
        /// be lost to a power failure.
        case normal
        /// `synchronous=FULL`: a commit survives a power failure too, at the cost of an fsync per
        /// commit.
        case full
    }

    /// The file.
    package let path: String
    private let pool: DatabasePool
    private let checkpointer: BackgroundCheckpointer
    private let lock: FileLock
    private let writer = SerialQueueExecutor(label: "mvvmserver.state.writer")

    /// Opens (or creates) the store at `path`, migrating its schema. The log is copied back into
    /// the file in the background once a commit leaves it at `walPages` pages or more.
    /// Failures that nothing can be told of (a background checkpoint's) are logged to `logger`.
    /// - Throws: ``StateStoreError`` when the file is locked by another server, is not an
    ///   SQLite database, is damaged, or has a schema newer than this server's.
    package init(path: String, synchronous: Synchronous = .normal, walPages: Int32 = 1000, logger: Logger = Logger(label: "mvvmserver.state")) throws
    {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        lock = try FileLock(path: path + ".lock", storePath: path)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous.rawValue.uppercased())")
        }
        do {
            // An existing file is checked read-only first, so that a file refused is left as it was.
            if FileManager.default.fileExists(atPath: path) {
                var readOnly = Configuration()
                readOnly.readonly = true
                let check = try DatabaseQueue(path: path, configuration: readOnly)
                defer { try? check.close() }
                try check.read { db in
                    if try Self.migrator.hasBeenSuperseded(db) {
                        throw StateStoreError(path: path, problem: "its schema is newer than this server's (written by a later version)")
                    }
                }
            }
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
            checkpointer = try BackgroundCheckpointer(path: path, configuration: configuration, walPages: walPages, logger: logger)
            pool.writeWithoutTransaction { [checkpointer] db in checkpointer.install(on: db) }
        } catch let error as StateStoreError {
            throw error
        } catch {
            throw StateStoreError(path: path, problem: "it is not a usable SQLite database (\(error))")
        }
    }

    /// The schema, one migration per version.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "session") { table in
                table.primaryKey("id", .text)
                table.column("createdAt", .integer).notNull()
                table.column("lastUsed", .integer).notNull()
                table.column("version", .integer).notNull()
                table.column("navigation", .blob).notNull()
            }
            try db.create(table: "entry") { table in
                table.column("sessionId", .text).notNull().references("session", onDelete: .cascade)
                table.column("position", .integer).notNull()
                table.column("key", .text).notNull()
                table.column("scene", .text).notNull()
                table.column("input", .blob).notNull()
                table.primaryKey(["sessionId", "key"])
            }
            try db.create(table: "savedValue") { table in
                table.column("sessionId", .text).notNull().references("session", onDelete: .cascade)
                table.column("key", .text).notNull()
                table.column("name", .text).notNull()
                table.column("value", .blob).notNull()
                table.primaryKey(["sessionId", "key", "name"])
            }
        }
        migrator.registerMigration("v2") { db in
            // How many times a server took the session over (see SavedSession.fence).
            try db.alter(table: "session") { table in
                table.add(column: "fence", .integer).notNull().defaults(to: 0)
            }
        }
        return migrator
    }

    package var kind: String { "sqlite" }

    /// Returns at once: one server holds the file, so no other takes its sessions over.
    package func run(handedOver: @escaping @Sendable (String) -> Void) async {}

    /// Does nothing: the file was opened and migrated when the store was made.
    package func prepare() async throws {}

    package func adopt(_ id: String) async throws -> SavedSession? {
        try await pool.write { db in
            try db.cachedStatement(sql: "UPDATE session SET fence = fence + 1 WHERE id = ?").execute(arguments: [id])
            return try SessionRows.read(id, in: db)
        }
    }

    package func session(_ id: String) async throws -> SavedSession? {
        try await pool.read { db in try SessionRows.read(id, in: db) }
    }

    package func isReachable() async -> Bool {
        (try? await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) != nil
    }

    /// SQLite's `synchronous` setting of the store's connections (1 NORMAL, 2 FULL).
    package func synchronousSetting() throws -> Int {
        try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// A fault a test can make the writer connection have.
    package enum Fault: Sendable {
        /// The file cannot grow (`PRAGMA max_page_count` at its size now): a full disk.
        case diskFull
        /// Every write fails (`PRAGMA query_only`).
        case writesRefused
    }

    /// Gives the writer connection `fault`, or takes faults away (`nil`), once the commits
    /// handed over before are done.
    package func simulate(_ fault: Fault?) throws {
        try pool.writeWithoutTransaction { db in
            switch fault {
            case .diskFull:
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
            case .writesRefused:
                try db.execute(sql: "PRAGMA query_only = 1")
            case nil:
                try db.execute(sql: "PRAGMA query_only = 0")
                try db.execute(sql: "PRAGMA max_page_count = 4294967294")
            }
        }
    }

    /// How many checkpoints ran in the background (for tests).
    package var backgroundCheckpoints: Int {
        checkpointer.completedCount
    }

    package func sessionCount() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session") ?? 0 }
    }

    /// The executor commits are written on; the committer of saves runs on it too, so that a
    /// batch is written and finished without changing threads.
    package var commitExecutor: (any TaskExecutor)? { writer }

    /// Writes the commits in one transaction, on the store's writer executor: they succeed or
    /// fail together.
    package func commit(each commits: [[SessionChange]]) async -> [Result<Void, any Error>] {
        guard !commits.isEmpty else { return [] }
        let outcome = await withTaskExecutorPreference(writer) { write(commits) }
        return commits.map { _ in outcome }
    }

    /// Writes `commits` in one transaction, waiting for the disk: called on the writer executor.
    private func write(_ commits: [[SessionChange]]) -> Result<Void, any Error> {
        Result {
            try pool.writeWithoutTransaction { db in
                // The transaction's own statements are cached too (GRDB's inTransaction
                // prepares its BEGIN again each time).
                try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
                do {
                    var rows = SessionRowWriter(db)
                    for changes in commits {
                        for change in changes { try rows.write(change) }
                    }
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                } catch {
                    if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK TRANSACTION") }
                    throw error
                }
            }
        }
    }

    package func close() async {
        // After every commit that reached the writer executor before.
        await withTaskExecutorPreference(writer) { try? pool.close() }
        await checkpointer.close()
        lock.release()
    }
}

/// Why a state file cannot be used; names the file.
package struct StateStoreError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file.
    package let path: String
    /// What is wrong with it.
    package let problem: String

    /// The file and its problem in one sentence.
    package var description: String {
        "The state file \(path) cannot be used: \(problem)."
    }
}
