// Built with the PostgreSQL trait only (Package.swift): without it, this module is empty and
// postgres-nio is not built.
#if PostgreSQL
import Foundation
import Logging
import MVVMCore
import PostgresNIO

/// How a saved session is written to and read from its rows: one in `mvvm_session` (with the
/// fence of the server that holds it), one per view model in `mvvm_entry`, one per saved value
/// in `mvvm_saved_value`.
enum PostgresSessionRows {
    /// Writes a change in the open transaction, as the server holding `fence` (`nil`: the
    /// session is new). Returns whether it was written: `false` when another server holds the
    /// session (its fence is higher), and then nothing was.
    static func write(_ change: SessionChange, fence: Int64?, owner: String, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        switch change {
        case .delete(let id):
            guard let fence else { return false }
            return try await count(connection.query("DELETE FROM mvvm_session WHERE id = \(id) AND fence = \(fence) RETURNING 1", logger: logger)) > 0
        case .touch(let id, let lastUsed):
            guard let fence else { return false }
            return try await count(connection.query("""
                UPDATE mvvm_session SET last_used = greatest(last_used, \(lastUsed)) WHERE id = \(id) AND fence = \(fence) RETURNING 1
                """, logger: logger)) > 0
        case .save(let session):
            let id = session.id
            let version = Int64(bitPattern: session.version)
            if let fence {
                let updated: PostgresRowSequence
                if let navigation = session.navigation {
                    updated = try await connection.query("""
                        UPDATE mvvm_session SET last_used = \(session.lastUsed), version = \(version), navigation = \(Data(navigation))
                        WHERE id = \(id) AND fence = \(fence) RETURNING 1
                        """, logger: logger)
                } else {
                    updated = try await connection.query("""
                        UPDATE mvvm_session SET last_used = \(session.lastUsed), version = \(version) WHERE id = \(id) AND fence = \(fence) RETURNING 1
                        """, logger: logger)
                }
                guard try await count(updated) > 0 else { return false }
            } else {
                let navigation = Data(session.navigation ?? Array("null".utf8))
                let inserted = try await connection.query("""
                    INSERT INTO mvvm_session (id, created_at, last_used, version, navigation, fence, owner)
                    VALUES (\(id), \(session.createdAt), \(session.lastUsed), \(version), \(navigation), 0, \(owner))
                    ON CONFLICT (id) DO NOTHING RETURNING 1
                    """, logger: logger)
                guard try await count(inserted) > 0 else { return false }
            }
            if session.isComplete {
                try await connection.query("DELETE FROM mvvm_entry WHERE session_id = \(id)", logger: logger)
                try await connection.query("DELETE FROM mvvm_saved_value WHERE session_id = \(id)", logger: logger)
            }
            for key in session.removedKeys {
                try await connection.query("DELETE FROM mvvm_entry WHERE session_id = \(id) AND key = \(key)", logger: logger)
                try await connection.query("DELETE FROM mvvm_saved_value WHERE session_id = \(id) AND key = \(key)", logger: logger)
            }
            for entry in session.entries {
                try await connection.query("""
                    INSERT INTO mvvm_entry (session_id, key, position, scene, input) VALUES (\(id), \(entry.key), \(entry.position), \(entry.scene), \(Data(entry.input)))
                    ON CONFLICT (session_id, key) DO UPDATE SET position = excluded.position, scene = excluded.scene, input = excluded.input
                    """, logger: logger)
                guard entry.valuesChanged || session.isComplete else { continue }
                if !session.isComplete {
                    try await connection.query("DELETE FROM mvvm_saved_value WHERE session_id = \(id) AND key = \(entry.key)", logger: logger)
                }
                for (name, value) in entry.values {
                    try await connection.query("""
                        INSERT INTO mvvm_saved_value (session_id, key, name, value) VALUES (\(id), \(entry.key), \(name), \(Data(value)))
                        """, logger: logger)
                }
            }
            return true
        }
    }

    /// Reads the session saved under `id` in the open transaction (or outside one).
    static func read(_ id: String, on connection: PostgresConnection, logger: Logger) async throws -> SavedSession? {
        var session: SavedSession?
        let rows = try await connection.query("SELECT created_at, last_used, version, navigation, fence FROM mvvm_session WHERE id = \(id)", logger: logger)
        for try await (createdAt, lastUsed, version, navigation, fence) in rows.decode((Int64, Int64, Int64, Data, Int64).self) {
            session = SavedSession(id: id, createdAt: createdAt, lastUsed: lastUsed, version: UInt64(bitPattern: version), navigation: Array(navigation), entries: [])
            session?.fence = fence
        }
        guard var session else { return nil }
        var values: [String: [String: [UInt8]]] = [:]
        let valueRows = try await connection.query("SELECT key, name, value FROM mvvm_saved_value WHERE session_id = \(id)", logger: logger)
        for try await (key, name, value) in valueRows.decode((String, String, Data).self) {
            values[key, default: [:]][name] = Array(value)
        }
        let entryRows = try await connection.query("SELECT key, scene, input, position FROM mvvm_entry WHERE session_id = \(id) ORDER BY position", logger: logger)
        for try await (key, scene, input, position) in entryRows.decode((String, String, Data, Int).self) {
            session.entries.append(SavedSession.Entry(key: key, scene: scene, input: Array(input), values: values[key] ?? [:], position: position))
        }
        return session
    }

    /// How many rows a statement gave.
    private static func count(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }
}
#endif
