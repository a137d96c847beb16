import Foundation
import GRDB
import MVVMCore

/// How a saved session is written to and read from its rows: one in `session`, one per view
/// model in `entry`, one per saved value in `savedValue`. The statements are prepared once per
/// connection (GRDB's statement cache).
enum SessionRows {
    static func write(_ change: SessionChange, in db: Database) throws {
        switch change {
        case .delete(let id):
            try db.cachedStatement(sql: "DELETE FROM session WHERE id = ?").execute(arguments: [id])
        case .touch(let id, let lastUsed):
            try db.cachedStatement(sql: "UPDATE session SET lastUsed = max(lastUsed, ?) WHERE id = ?").execute(arguments: [lastUsed, id])
        case .save(let session):
            if let navigation = session.navigation {
                try db.cachedStatement(sql: """
                    INSERT INTO session (id, createdAt, lastUsed, version, navigation) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET lastUsed = excluded.lastUsed, version = excluded.version, navigation = excluded.navigation
                    """).execute(arguments: [session.id, session.createdAt, session.lastUsed, Int64(bitPattern: session.version), Data(navigation)])
            } else {
                try db.cachedStatement(sql: "UPDATE session SET lastUsed = ?, version = ? WHERE id = ?")
                    .execute(arguments: [session.lastUsed, Int64(bitPattern: session.version), session.id])
            }
            if session.isComplete {
                try db.cachedStatement(sql: "DELETE FROM entry WHERE sessionId = ?").execute(arguments: [session.id])
                try db.cachedStatement(sql: "DELETE FROM savedValue WHERE sessionId = ?").execute(arguments: [session.id])
            }
            let deleteEntry = try db.cachedStatement(sql: "DELETE FROM entry WHERE sessionId = ? AND key = ?")
            let deleteValues = try db.cachedStatement(sql: "DELETE FROM savedValue WHERE sessionId = ? AND key = ?")
            for key in session.removedKeys {
                try deleteEntry.execute(arguments: [session.id, key])
                try deleteValues.execute(arguments: [session.id, key])
            }
            let upsertEntry = try db.cachedStatement(sql: """
                INSERT INTO entry (sessionId, position, key, scene, input) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(sessionId, key) DO UPDATE SET position = excluded.position, scene = excluded.scene, input = excluded.input
                """)
            let insertValue = try db.cachedStatement(sql: "INSERT INTO savedValue (sessionId, key, name, value) VALUES (?, ?, ?, ?)")
            for entry in session.entries {
                try upsertEntry.execute(arguments: [session.id, entry.position, entry.key, entry.scene, Data(entry.input)])
                guard entry.valuesChanged || session.isComplete else { continue }
                if !session.isComplete { try deleteValues.execute(arguments: [session.id, entry.key]) }
                for (name, value) in entry.values {
                    try insertValue.execute(arguments: [session.id, entry.key, name, Data(value)])
                }
            }
        }
    }

    static func read(_ id: String, in db: Database) throws -> SavedSession? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT createdAt, lastUsed, version, navigation, fence FROM session WHERE id = ?"), arguments: [id]) else {
            return nil
        }
        var values: [String: [String: [UInt8]]] = [:]
        for value in try Row.fetchAll(db.cachedStatement(sql: "SELECT key, name, value FROM savedValue WHERE sessionId = ?"), arguments: [id]) {
            let bytes: Data = value["value"]
            values[value["key"], default: [:]][value["name"]] = Array(bytes)
        }
        let entries = try Row.fetchAll(db.cachedStatement(sql: "SELECT key, scene, input, position FROM entry WHERE sessionId = ? ORDER BY position"), arguments: [id]).map { entry in
            let key: String = entry["key"]
            let input: Data = entry["input"]
            return SavedSession.Entry(key: key, scene: entry["scene"], input: Array(input), values: values[key] ?? [:], position: entry["position"])
        }
        let navigation: Data = row["navigation"]
        let version: Int64 = row["version"]
        var saved = SavedSession(id: id, createdAt: row["createdAt"], lastUsed: row["lastUsed"], version: UInt64(bitPattern: version),
                                 navigation: Array(navigation), entries: entries)
        saved.fence = row["fence"]
        return saved
    }
}

