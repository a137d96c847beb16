// Built with the PostgreSQL trait only (Package.swift): without it, this module is empty and
// postgres-nio is not built.
#if PostgreSQL
    import Logging
    import MVVMCore

    extension SessionStorage {
        /// Sessions saved in the PostgreSQL database at `url`
        /// (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, without TLS), which several servers
        /// may share: each session is served by one of them at a time, and a server that gets a
        /// request for a session another holds takes it over. The schema is made or migrated at
        /// start; a database that does not answer within five seconds, or whose schema is newer,
        /// stops the start with an error that names it.
        public static func postgres(url: String) -> SessionStorage {
            SessionStorage { instance, logger in
                try PostgresStateStore(url: url, instance: instance, logger: logger)
            }
        }
    }

    extension SessionStorageScheme {
        /// `postgres://` and `postgresql://` URLs: ``SessionStorage/postgres(url:)``.
        public static var postgres: SessionStorageScheme {
            SessionStorageScheme(names: ["postgres", "postgresql"]) { .postgres(url: $0) }
        }
    }
#endif
