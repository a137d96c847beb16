import GRDB
import GRDBSQLite

/// The one place where the result codes of the SQLite C calls this module makes itself are
/// read (GRDB checks its own): a code that is not the one a call succeeds with becomes a thrown
/// `DatabaseError`, with SQLite's message for the connection and the statement's text.
enum SQLiteResult {
    /// Returns when `code` is `success`; otherwise throws the `DatabaseError` it stands for.
    /// - Parameters:
    ///   - code: what the C call returned.
    ///   - success: the code the call returns when it succeeds (`SQLITE_OK` for most calls,
    ///     `SQLITE_DONE` for a step that runs a statement to its end).
    ///   - connection: the connection the call was made on, for SQLite's message; `nil` when
    ///     there is none to ask.
    ///   - sql: the statement's text, for the error.
    static func check(_ code: Int32, success: Int32 = SQLITE_OK, connection: SQLiteConnection?, sql: String? = nil) throws(DatabaseError) {
        guard code != success else { return }
        let message = connection.map { String(cString: sqlite3_errmsg($0)) }
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }
}
