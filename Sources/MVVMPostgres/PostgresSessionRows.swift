// Built with the PostgreSQL trait only (Package.swift): without it, this module is empty and
// postgres-nio is not built.
#if PostgreSQL
    import Foundation
    import Logging
    import MVVMCore
    import PostgresNIO

    /// How a saved session is read from its rows: one in `mvvm_session` (with the fence of the
    /// server that holds it), one per view model in `mvvm_entry`, one per saved value in
    /// `mvvm_saved_value`. (They are written by ``PostgresChangeBatch``.)
    enum PostgresSessionRows {
        /// Reads the session saved under `id` in the open transaction (or outside one).
        static func read(_ id: String, on connection: PostgresConnection, logger: Logger) async throws -> SavedSession? {
            var session: SavedSession?
            let rows = try await connection.query(
                "SELECT created_at, last_used, version, navigation, fence FROM mvvm_session WHERE id = \(id)", logger: logger)
            for try await (createdAt, lastUsed, version, navigation, fence) in rows.decode((Int64, Int64, Int64, Data, Int64).self) {
                session = SavedSession(
                    id: id, createdAt: createdAt, lastUsed: lastUsed, version: UInt64(bitPattern: version), navigation: Array(navigation), entries: []
                )
                session?.fence = fence
            }
            guard var session else { return nil }
            var values: [String: [String: [UInt8]]] = [:]
            let valueRows = try await connection.query("SELECT key, name, value FROM mvvm_saved_value WHERE session_id = \(id)", logger: logger)
            for try await (key, name, value) in valueRows.decode((String, String, Data).self) {
                values[key, default: [:]][name] = Array(value)
            }
            let entryRows = try await connection.query(
                "SELECT key, scene, input, position FROM mvvm_entry WHERE session_id = \(id) ORDER BY position", logger: logger)
            for try await (key, scene, input, position) in entryRows.decode((String, String, Data, Int).self) {
                session.entries.append(
                    SavedSession.Entry(key: key, scene: scene, input: Array(input), values: values[key] ?? [:], position: position))
            }
            return session
        }
    }
#endif
