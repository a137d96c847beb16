import Foundation
import GRDB
import MVVMCore

/// How a saved session is read from its rows: one in `session`, one per view model in `entry`,
/// one per saved value in `savedValue` (``SessionRowWriter`` writes them). The statements are
/// prepared once per connection (GRDB's statement cache).
enum SessionRows {
    static func read(_ id: String, in db: Database) throws -> SavedSession? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT createdAt, lastUsed, version, navigation, fence FROM session WHERE id = ?"), arguments: [id])
        else {
            return nil
        }
        var values: [String: [String: [UInt8]]] = [:]
        for value in try Row.fetchAll(db.cachedStatement(sql: "SELECT key, name, value FROM savedValue WHERE sessionId = ?"), arguments: [id]) {
            let bytes: Data = value["value"]
            values[value["key"], default: [:]][value["name"]] = Array(bytes)
        }
        let entries = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT key, scene, input, position FROM entry WHERE sessionId = ? ORDER BY position"), arguments: [id]
        ).map { entry in
            let key: String = entry["key"]
            let input: Data = entry["input"]
            return SavedSession.Entry(key: key, scene: entry["scene"], input: Array(input), values: values[key] ?? [:], position: entry["position"])
        }
        let navigation: Data = row["navigation"]
        let version: Int64 = row["version"]
        var saved = SavedSession(
            id: id, createdAt: row["createdAt"], lastUsed: row["lastUsed"], version: UInt64(bitPattern: version),
            navigation: Array(navigation), entries: entries)
        saved.fence = row["fence"]
        return saved
    }
}
