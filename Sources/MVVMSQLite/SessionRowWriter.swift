import GRDB
import GRDBSQLite
import MVVMCore

/// Writes session changes into the rows that ``SessionRows`` reads, on the writer connection,
/// within one commit. Each statement is taken from the connection's statement cache at most
/// once per commit, and its values are bound and its steps run through SQLite's C interface on
/// GRDB's raw statement (`Statement.sqliteStatement`).
struct SessionRowWriter {
    /// The statements a write uses.
    private enum SQL: Int, CaseIterable {
        case deleteSession, touchSession, upsertSession, updateSession
        case deleteEntries, deleteAllValues, deleteEntry, deleteValues, upsertEntry, insertValue

        var text: String {
            switch self {
            case .deleteSession: "DELETE FROM session WHERE id = ?"
            case .touchSession: "UPDATE session SET lastUsed = max(lastUsed, ?) WHERE id = ?"
            case .upsertSession:
                """
                INSERT INTO session (id, createdAt, lastUsed, version, navigation) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET lastUsed = excluded.lastUsed, version = excluded.version, navigation = excluded.navigation
                """
            case .updateSession: "UPDATE session SET lastUsed = ?, version = ? WHERE id = ?"
            case .deleteEntries: "DELETE FROM entry WHERE sessionId = ?"
            case .deleteAllValues: "DELETE FROM savedValue WHERE sessionId = ?"
            case .deleteEntry: "DELETE FROM entry WHERE sessionId = ? AND key = ?"
            case .deleteValues: "DELETE FROM savedValue WHERE sessionId = ? AND key = ?"
            case .upsertEntry:
                """
                INSERT INTO entry (sessionId, position, key, scene, input) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(sessionId, key) DO UPDATE SET position = excluded.position, scene = excluded.scene, input = excluded.input
                """
            case .insertValue: "INSERT INTO savedValue (sessionId, key, name, value) VALUES (?, ?, ?, ?)"
            }
        }
    }

    /// The values of one execution, bound in order from the first parameter; a bind SQLite
    /// refuses (a value too large, say) throws its `DatabaseError`.
    private struct Values {
        let statement: SQLiteStatement
        let connection: SQLiteConnection?
        let sql: SQL
        private var index: Int32 = 0

        init(_ statement: SQLiteStatement, connection: SQLiteConnection?, sql: SQL) {
            self.statement = statement
            self.connection = connection
            self.sql = sql
        }

        private func check(_ code: Int32) throws(DatabaseError) {
            try SQLiteResult.check(code, connection: connection, sql: sql.text)
        }

        /// SQLite copies a text or blob before the bind returns.
        private static var transient: sqlite3_destructor_type {
            unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        }

        mutating func bind(_ value: Int64) throws(DatabaseError) {
            index += 1
            try check(sqlite3_bind_int64(statement, index, value))
        }

        mutating func bind(_ value: Int) throws(DatabaseError) {
            try bind(Int64(value))
        }

        mutating func bind(_ text: String) throws(DatabaseError) {
            index += 1
            try check(sqlite3_bind_text(statement, index, text, Int32(text.utf8.count), Self.transient))
        }

        mutating func bind(_ bytes: [UInt8]) throws(DatabaseError) {
            index += 1
            guard !bytes.isEmpty else {
                // An empty blob, not NULL (a blob bound from no address is NULL).
                try check(sqlite3_bind_zeroblob(statement, index, 0))
                return
            }
            let index = index
            let code = bytes.withUnsafeBytes { raw in
                sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), Self.transient)
            }
            try check(code)
        }
    }

    private let db: Database
    private var statements = [Statement?](repeating: nil, count: SQL.allCases.count)

    /// A writer for one commit on `db`, the writer connection, inside its transaction.
    init(_ db: Database) {
        self.db = db
    }

    /// Writes one change.
    /// - Throws: `DatabaseError` when SQLite refuses a statement (a full disk, an I/O error);
    ///   the caller rolls the transaction back.
    mutating func write(_ change: SessionChange) throws {
        switch change {
        case .delete(let id):
            try execute(.deleteSession) { try $0.bind(id) }
        case .touch(let id, let lastUsed):
            try execute(.touchSession) { values in
                try values.bind(lastUsed)
                try values.bind(id)
            }
        case .save(let session):
            try save(session)
        }
    }

    private mutating func save(_ session: SavedSession) throws {
        let id = session.id
        let version = Int64(bitPattern: session.version)
        if let navigation = session.navigation {
            try execute(.upsertSession) { values in
                try values.bind(id)
                try values.bind(session.createdAt)
                try values.bind(session.lastUsed)
                try values.bind(version)
                try values.bind(navigation)
            }
        } else {
            try execute(.updateSession) { values in
                try values.bind(session.lastUsed)
                try values.bind(version)
                try values.bind(id)
            }
        }
        if session.isComplete {
            try execute(.deleteEntries) { try $0.bind(id) }
            try execute(.deleteAllValues) { try $0.bind(id) }
        }
        for key in session.removedKeys {
            try execute(.deleteEntry) { values in
                try values.bind(id)
                try values.bind(key)
            }
            try execute(.deleteValues) { values in
                try values.bind(id)
                try values.bind(key)
            }
        }
        for entry in session.entries {
            try execute(.upsertEntry) { values in
                try values.bind(id)
                try values.bind(entry.position)
                try values.bind(entry.key)
                try values.bind(entry.scene)
                try values.bind(entry.input)
            }
            guard entry.valuesChanged || session.isComplete else { continue }
            if !session.isComplete {
                try execute(.deleteValues) { values in
                    try values.bind(id)
                    try values.bind(entry.key)
                }
            }
            for (name, value) in entry.values {
                try execute(.insertValue) { values in
                    try values.bind(id)
                    try values.bind(entry.key)
                    try values.bind(name)
                    try values.bind(value)
                }
            }
        }
    }

    /// Binds `bind`'s values to `sql`'s statement and runs it to its end.
    /// The statement is reset whether or not it ran: after a failed step the reset repeats the
    /// step's error, and after a successful one its own result is checked.
    private mutating func execute(_ sql: SQL, _ bind: (inout Values) throws -> Void) throws {
        let statement = try prepared(sql)
        var values = Values(statement, connection: db.sqliteConnection, sql: sql)
        do {
            try bind(&values)
        } catch {
            try SQLiteResult.check(sqlite3_reset(statement), connection: db.sqliteConnection, sql: sql.text)
            throw error
        }
        let stepped = sqlite3_step(statement)
        let reset = sqlite3_reset(statement)
        if stepped != SQLITE_DONE {
            try SQLiteResult.check(stepped, success: SQLITE_DONE, connection: db.sqliteConnection, sql: sql.text)
        }
        try SQLiteResult.check(reset, connection: db.sqliteConnection, sql: sql.text)
    }

    private mutating func prepared(_ sql: SQL) throws -> SQLiteStatement {
        if let statement = statements[sql.rawValue] { return statement.sqliteStatement }
        let statement = try db.cachedStatement(sql: sql.text)
        statements[sql.rawValue] = statement
        return statement.sqliteStatement
    }
}
