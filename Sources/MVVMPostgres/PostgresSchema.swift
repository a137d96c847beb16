// Built with the PostgreSQL trait only (Package.swift): without it, this module is empty and
// postgres-nio is not built.
#if PostgreSQL
    import Logging
    import PostgresNIO

    /// The tables of the saved sessions, one migration per version, applied in a transaction under
    /// an advisory lock so that servers starting together migrate once.
    enum PostgresSchema {
        /// The statements of each version, in order (version 1 is the first; version 2 adds the
        /// function that applies a batch of changes, ``PostgresChangeBatch``).
        static let migrations: [[PostgresQuery]] = [
            [
                """
                CREATE TABLE mvvm_session (
                    id text PRIMARY KEY,
                    created_at bigint NOT NULL,
                    last_used bigint NOT NULL,
                    version bigint NOT NULL,
                    navigation bytea NOT NULL,
                    fence bigint NOT NULL DEFAULT 0,
                    owner text NOT NULL)
                """,
                """
                CREATE TABLE mvvm_entry (
                    session_id text NOT NULL REFERENCES mvvm_session (id) ON DELETE CASCADE,
                    key text NOT NULL,
                    position bigint NOT NULL,
                    scene text NOT NULL,
                    input bytea NOT NULL,
                    PRIMARY KEY (session_id, key))
                """,
                """
                CREATE TABLE mvvm_saved_value (
                    session_id text NOT NULL REFERENCES mvvm_session (id) ON DELETE CASCADE,
                    key text NOT NULL,
                    name text NOT NULL,
                    value bytea NOT NULL,
                    PRIMARY KEY (session_id, key, name))
                """,
            ],
            [PostgresChangeBatch.applyFunction],
        ]

        /// The key of the advisory lock the migrations hold.
        private static let lockKey: Int64 = 0x4D56_564D

        /// Brings the schema to this server's version.
        /// - Throws: ``PostgresStoreError`` when the database's schema is newer than this server's.
        static func migrate(_ client: PostgresClient, location: PostgresLocation, logger: Logger) async throws {
            do {
                try await migrateInTransaction(client, location: location, logger: logger)
            } catch let error as PostgresTransactionError {
                // The refusal itself, not the transaction that carried it.
                if let refusal = error.closureError as? PostgresStoreError { throw refusal }
                throw error
            }
        }

        private static func migrateInTransaction(_ client: PostgresClient, location: PostgresLocation, logger: Logger) async throws {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                try await connection.query("CREATE TABLE IF NOT EXISTS mvvm_schema (version integer NOT NULL)", logger: logger)
                var current = 0
                for try await version in try await connection.query("SELECT version FROM mvvm_schema", logger: logger).decode(Int.self) {
                    current = max(current, version)
                }
                guard current <= migrations.count else {
                    throw PostgresStoreError(
                        location: location.redacted,
                        problem:
                            "its schema (version \(current)) is newer than this server's (version \(migrations.count)), written by a later version")
                }
                guard current < migrations.count else { return }
                for statements in migrations[current...] {
                    for statement in statements { try await connection.query(statement, logger: logger) }
                }
                try await connection.query("DELETE FROM mvvm_schema", logger: logger)
                try await connection.query("INSERT INTO mvvm_schema (version) VALUES (\(migrations.count))", logger: logger)
            }
        }
    }

    /// Why a PostgreSQL database cannot be used; names it (without its password).
    struct PostgresStoreError: Error, CustomStringConvertible, Sendable {
        let location: String
        let problem: String

        var description: String {
            "The state database \(location) cannot be used: \(problem)."
        }
    }
#endif
