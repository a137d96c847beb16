import MVVMCore
import MVVMSQLite

extension SessionStorage {
    /// Sessions saved in the SQLite file at `path` (made, with its folder, when missing), in WAL
    /// mode. A commit survives a crash of the server; with `fullSync` it survives a power loss
    /// too (SQLite's `synchronous=FULL`, an fsync per commit). The file is locked while the
    /// server runs: a second server on it is refused, as is a file that is not an SQLite
    /// database, is damaged or has a newer schema (the error names the file, left untouched).
    public static func sqlite(path: String, fullSync: Bool = false) -> SessionStorage {
        SessionStorage { _, logger in
            try SQLiteStateStore(path: path, synchronous: fullSync ? .full : .normal, logger: logger)
        }
    }
}
