import Logging

/// Where an application saves its sessions, so that they survive a restart or a crash of the
/// server: an SQLite file (`.sqlite(path:fullSync:)`), a PostgreSQL database that several
/// servers share (`.postgres(url:)`, from `MVVMPostgres`), or nowhere (``memory``).
public struct SessionStorage: Sendable {
    /// Opens the store for the server named `instance`, logging to `logger`; `nil` when
    /// sessions are kept in memory only. Throws an error that names the store and its problem
    /// when it cannot be used.
    package let open: @Sendable (_ instance: String, _ logger: Logger) async throws -> (any StateStore)?

    /// A storage that opens its store with `open`.
    package init(open: @escaping @Sendable (_ instance: String, _ logger: Logger) async throws -> (any StateStore)?) {
        self.open = open
    }

    /// Sessions kept in memory only: a restart forgets them, and what view models write to
    /// their saved state goes nowhere (a warning says so, once per scene).
    public static var memory: SessionStorage {
        SessionStorage { _, _ in nil }
    }
}
