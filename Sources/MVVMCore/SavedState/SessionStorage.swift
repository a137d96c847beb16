import Logging

/// Where an application saves its sessions, so that they survive a restart or a crash of the
/// server: an SQLite file (`.sqlite(path:fullSync:)`), or a PostgreSQL database that several
/// servers share (`.postgres(url:)`, from `MVVMPostgres`).
public struct SessionStorage: Sendable {
    /// Opens the store for the server named `instance`, logging to `logger`; throws an error
    /// that names the store and its problem when it cannot be used.
    package let open: @Sendable (_ instance: String, _ logger: Logger) async throws -> any StateStore

    /// A storage that opens its store with `open`.
    package init(open: @escaping @Sendable (_ instance: String, _ logger: Logger) async throws -> any StateStore) {
        self.open = open
    }
}
