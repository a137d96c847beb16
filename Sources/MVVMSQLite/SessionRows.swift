import Foundation
import GRDB
import MVVMCore

/// How a saved session is written to and read from its rows: one in `session`, one per view
/// model in `entry`, one per saved value in `savedValue`.
enum SessionRows {
    static func write(_ change: SessionChange, in db: Database) throws {
        switch change {
        case .delete(let id):
            try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [id])
        case .save(let session):
            try db.execute(sql: """
                INSERT INTO session (id, createdAt, lastUsed, version, navigation) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET lastUsed = excluded.lastUsed, version = excluded.version, navigation = excluded.navigation
                """, arguments: [session.id, session.createdAt, session.lastUsed, Int64(bitPattern: session.version), Data(session.navigation)])
            try db.execute(sql: "DELETE FROM entry WHERE sessionId = ?", arguments: [session.id])
            try db.execute(sql: "DELETE FROM savedValue WHERE sessionId = ?", arguments: [session.id])
            for (position, entry) in session.entries.enumerated() {
                try db.execute(sql: "INSERT INTO entry (sessionId, position, key, scene, input) VALUES (?, ?, ?, ?, ?)",
                               arguments: [session.id, position, entry.key, entry.scene, Data(entry.input)])
                for (name, value) in entry.values {
                    try db.execute(sql: "INSERT INTO savedValue (sessionId, key, name, value) VALUES (?, ?, ?, ?)",
                                   arguments: [session.id, entry.key, name, Data(value)])
                }
            }
        }
    }

    static func read(_ id: String, in db: Database) throws -> SavedSession? {
        guard let row = try Row.fetchOne(db, sql: "SELECT createdAt, lastUsed, version, navigation FROM session WHERE id = ?", arguments: [id]) else {
            return nil
        }
        var values: [String: [String: [UInt8]]] = [:]
        for value in try Row.fetchAll(db, sql: "SELECT key, name, value FROM savedValue WHERE sessionId = ?", arguments: [id]) {
            let bytes: Data = value["value"]
            values[value["key"], default: [:]][value["name"]] = Array(bytes)
        }
        let entries = try Row.fetchAll(db, sql: "SELECT key, scene, input FROM entry WHERE sessionId = ? ORDER BY position", arguments: [id]).map { entry in
            let key: String = entry["key"]
            let input: Data = entry["input"]
            return SavedSession.Entry(key: key, scene: entry["scene"], input: Array(input), values: values[key] ?? [:])
        }
        let navigation: Data = row["navigation"]
        let version: Int64 = row["version"]
        return SavedSession(id: id, createdAt: row["createdAt"], lastUsed: row["lastUsed"], version: UInt64(bitPattern: version),
                            navigation: Array(navigation), entries: entries)
    }
}
