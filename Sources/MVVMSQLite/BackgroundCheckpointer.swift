import Dispatch
import GRDB
import GRDBSQLite
import Logging
import Synchronization

/// Copies the write-ahead log back into the database file on a connection and a queue of its
/// own, so that the store's writer seldom runs a checkpoint, with the fsyncs that come with it,
/// while changes wait for their commit.
///
/// It replaces SQLite's automatic checkpoint on the writer connection with a WAL hook: once a
/// commit leaves ``walPages`` pages or more in the log that no checkpoint copied yet, a passive
/// checkpoint starts on the checkpoint queue (one at a time; commits go on meanwhile). A log
/// that commits keep growing is never copied to its end by a checkpoint that runs beside them,
/// and only a complete checkpoint lets the log start over: once it reaches ``walPagesLimit``
/// pages, the writer checkpoints it itself, as SQLite's automatic checkpoint would, copying
/// what the background left (after waiting for a background checkpoint under way to end).
final class BackgroundCheckpointer: Sendable {
    /// The size of the log, in pages, that starts a checkpoint in the background.
    let walPages: Int32
    /// The size of the log, in pages, at which the writer checkpoints it itself.
    let walPagesLimit: Int32
    private let connection: DatabaseQueue
    private let queue = DispatchQueue(label: "mvvmserver.state.checkpoint")
    private let isCheckpointing = Atomic<Bool>(false)
    /// The log's pages that the last checkpoint copied.
    private let copiedPages = Atomic<Int32>(0)
    private let completed = Atomic<Int>(0)
    private let logger: Logger

    /// Opens the checkpoint's connection to the database at `path` (already in WAL mode), with
    /// the store's `configuration` (its `synchronous` setting decides the checkpoint's fsyncs).
    init(path: String, configuration: Configuration, walPages: Int32, logger: Logger) throws {
        self.walPages = walPages
        self.logger = logger
        walPagesLimit = walPages * 4
        connection = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// How many checkpoints ran in the background.
    var completedCount: Int {
        completed.load(ordering: .relaxed)
    }

    /// Installs the WAL hook on `db`, the writer connection: from now on its commits start the
    /// checkpoints. The checkpointer must outlive the connection (or the hook).
    func install(on db: Database) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(
            db.sqliteConnection,
            { context, connection, name, pages in
                guard let context else { return SQLITE_OK }
                let checkpointer = Unmanaged<BackgroundCheckpointer>.fromOpaque(context).takeUnretainedValue()
                checkpointer.logGrew(to: pages, connection: connection, name: name)
                return SQLITE_OK
            }, context)
    }

    /// On the writer, after a commit that left `pages` pages in the log.
    private func logGrew(to pages: Int32, connection: OpaquePointer?, name: UnsafePointer<CChar>?) {
        if pages >= walPagesLimit {
            // As SQLite's automatic checkpoint does from this hook, once the background's
            // checkpoint under way (if any) has ended: two cannot run at once, and the log must
            // not outgrow its limit by however many commits a slow one lets pass. The commit's
            // write lock is released already, so the background's checkpoint does not wait for
            // this thread.
            queue.sync {}
            do {
                try SQLiteResult.check(sqlite3_wal_checkpoint_v2(connection, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil), connection: connection)
                // The log starts over at the next commit.
                copiedPages.store(0, ordering: .relaxed)
            } catch {
                // The log stays as it is; the next commit tries again.
                logger.warning("The state file's log could not be copied back into the file.", metadata: ["error": "\(error)"])
            }
            return
        }
        // Fewer pages than copied: the log started over.
        let copied = copiedPages.load(ordering: .relaxed)
        let uncopied = pages >= copied ? pages - copied : pages
        if uncopied >= walPages { start() }
    }

    private func start() {
        guard !isCheckpointing.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            // Passive: copies what no reader still needs and never blocks the writer. A
            // failure (an I/O error) leaves the log as it is; a later commit tries again.
            do {
                let result = try connection.inDatabase { try $0.checkpoint(.passive) }
                copiedPages.store(Int32(clamping: result.checkpointedFrameCount), ordering: .relaxed)
                completed.add(1, ordering: .relaxed)
            } catch {
                logger.warning("The state file's log could not be copied back into the file in the background.", metadata: ["error": "\(error)"])
            }
            isCheckpointing.store(false, ordering: .releasing)
        }
    }

    /// Waits for a checkpoint under way, then closes the connection, without blocking the
    /// calling thread. Call it once the writer connection is closed.
    func close() async {
        await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                do {
                    try connection.close()
                } catch {
                    logger.warning("The state file's checkpoint connection could not be closed.", metadata: ["error": "\(error)"])
                }
                closed.resume()
            }
        }
    }
}
