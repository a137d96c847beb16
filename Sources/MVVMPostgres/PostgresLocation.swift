// Built with the PostgreSQL trait only (Package.swift): without it, this module is empty and
// postgres-nio is not built.
#if PostgreSQL
    import Foundation
    import PostgresNIO

    /// A PostgreSQL database named by a URL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
    /// (`postgresql://` too), over TCP without TLS (a database on the same host or network).
    struct PostgresLocation: Sendable, Equatable {
        let user: String
        let password: String?
        let host: String
        let port: Int
        let database: String

        /// Reads a URL; `nil` when it is not a PostgreSQL URL with a user, a host and a database.
        init?(url: String) {
            guard let components = URLComponents(string: url),
                components.scheme == "postgres" || components.scheme == "postgresql",
                let user = components.user, !user.isEmpty,
                let host = components.host, !host.isEmpty
            else { return nil }
            let database = String(components.path.drop { $0 == "/" })
            guard !database.isEmpty, !database.contains("/") else { return nil }
            self.user = user
            password = components.password
            self.host = host
            port = components.port ?? 5432
            self.database = database
        }

        /// The URL without its password, for messages.
        var redacted: String {
            "postgres://\(user)@\(host):\(port)/\(database)"
        }

        /// postgres-nio's settings for it.
        var clientConfiguration: PostgresClient.Configuration {
            var configuration = PostgresClient.Configuration(
                host: host, port: port, username: user, password: password, database: database, tls: .disable)
            configuration.options.connectTimeout = .seconds(3)
            configuration.options.maximumConnections = 8
            configuration.options.minimumConnections = 1
            return configuration
        }
    }
#endif
