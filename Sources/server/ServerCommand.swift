import ArgumentParser
import Foundation
import Logging
import MVVMServer
import Scenes
#if PostgreSQL
import MVVMPostgres
#endif

/// `server`: serves the example MVVM app over HTTP until SIGINT or SIGTERM, in a `ServiceGroup`.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Serve the MVVM example app over HTTP (sessions, scenes, long-poll).")

    @Option(help: "The IPv4 address to listen on (loopback unless told otherwise).")
    var host = "127.0.0.1"

    @Option(help: "The TCP port; 0 picks a free one.")
    var port = 8080

    @Option(help: "Connections served at once; more are refused.")
    var maxConnections = 16_384

    @Option(help: "Threads polling the sockets (libmicrohttpd's thread pool).")
    var threads = 2

    @Option(help: "Seconds an idle connection is kept.")
    var connectionTimeout = 30

    @Option(help: "The largest request body accepted, in bytes.")
    var maxBodyBytes = 1 << 20

    @Option(help: "libmicrohttpd's memory pool per connection, in bytes (bounds the request line and headers).")
    var connectionMemoryLimit = 4 * 1024

    @Option(help: "The longest long-poll wait, in seconds.")
    var maxWait: Double = 60

    @Option(help: "Seconds without a request after which a session expires.")
    var sessionIdleTimeout: Double = 1800

    @Option(help: "The most sessions alive at once.")
    var maxSessions = 10_000

    @Option(help: "A SWAPI-compatible base URL (e.g. https://swapi.dev/api/); the embedded data set when absent.")
    var swapiUrl: String?

    @Option(help: "Milliseconds of artificial latency of the embedded data set, to watch scenes load.")
    var swapiLatencyMs = 0

    @Option(help: "Retries of a failed SWAPI request (transient failures only).")
    var swapiRetries = 2

    @Option(help: "Seconds one SWAPI request may take.")
    var swapiTimeout: Double = 5

    @Option(help: "The most long-polls parked and streams open on one session.")
    var maxParkedPerSession = 2048

    @Option(help: "The most long-polls parked and streams open in all (keep it below --max-connections).")
    var maxParked = 12_000

    @Option(help: "Seconds between two heartbeats (a comment line) of a Server-Sent Events stream.")
    var heartbeatSeconds: Double = 15

    @Option(help: "trace, debug (a line for every answered request), info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Option(help: """
        Where sessions are saved, so that they survive a restart or a crash: an SQLite file, or \
        postgres://USER@HOST:PORT/DB for a PostgreSQL database several servers share; `none` \
        keeps them in memory only. Default: $XDG_STATE_HOME/mvvmserver/state.sqlite, else \
        ~/.local/state/mvvmserver/state.sqlite.
        """)
    var state: String?

    @Option(help: "This server's name, in the MVVM-Instance header of every answer and in /health. Default: the host name and the port.")
    var instance: String?

    @Option(help: """
        For an SQLite file: normal, a saved change survives a crash of the server; full, it \
        survives a power loss too (an fsync per commit). With PostgreSQL, commits are as durable \
        as the database's own settings make them, and this does not apply.
        """)
    var stateSync: StateSync = .normal

    /// How durable a commit of the state file is.
    enum StateSync: String, ExpressibleByArgument {
        case normal, full
    }

    /// Where sessions are saved: the database or file given, the XDG default file, or nowhere.
    func storage() throws -> SessionStorage? {
        if state == "none" { return nil }
        if let state, state.hasPrefix("postgres://") || state.hasPrefix("postgresql://") {
            #if PostgreSQL
            return .postgres(url: state)
            #else
            throw ValidationError("--state \(state): this server was built without PostgreSQL (the PostgreSQL trait)")
            #endif
        }
        return .sqlite(path: state.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultStateFile, fullSync: stateSync == .full)
    }

    /// The state file when none is given: under `$XDG_STATE_HOME`, else `~/.local/state`.
    private static var defaultStateFile: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/state")
        return base + "/mvvmserver/state.sqlite"
    }

    func validate() throws {
        guard maxWait.isFinite, (0...86_400).contains(maxWait) else {
            throw ValidationError("--max-wait must be a number of seconds from 0 to 86400")
        }
        guard sessionIdleTimeout.isFinite, sessionIdleTimeout > 0 else {
            throw ValidationError("--session-idle-timeout must be a positive number of seconds")
        }
        guard swapiTimeout.isFinite, swapiTimeout > 0 else {
            throw ValidationError("--swapi-timeout must be a positive number of seconds")
        }
        guard heartbeatSeconds.isFinite, (0.05...86_400).contains(heartbeatSeconds) else {
            throw ValidationError("--heartbeat-seconds must be a number of seconds from 0.05 to 86400")
        }
        if let instance, instance.isEmpty || instance.contains(where: { !$0.isASCII || $0.isNewline || ($0.asciiValue ?? 0) < 32 }) {
            throw ValidationError("--instance must be a non-empty name of printable ASCII characters")
        }
        guard (1...64).contains(threads) else {
            throw ValidationError("--threads must be from 1 to 64")
        }
        guard maxConnections > 0, maxSessions > 0, maxBodyBytes >= 0, connectionTimeout > 0, maxParked >= 0, maxParkedPerSession >= 0 else {
            throw ValidationError("limits must be positive")
        }
    }

    func run() async throws {
        AllocatorTuning.apply()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel
            return handler
        }
        let logger = Logger(label: "mvvm-server")
        var settings = ApplicationConfiguration()
        settings.http.host = host
        settings.http.port = port
        settings.http.maxConnections = maxConnections
        settings.http.threads = threads
        settings.http.connectionTimeoutSeconds = connectionTimeout
        settings.http.maxBodyBytes = maxBodyBytes
        settings.http.connectionMemoryLimitBytes = connectionMemoryLimit
        settings.http.streamHeartbeatSeconds = heartbeatSeconds
        settings.maxWaitSeconds = maxWait
        settings.sessionIdleSeconds = sessionIdleTimeout
        settings.maxSessions = maxSessions
        settings.maxParkedPerSession = maxParkedPerSession
        settings.maxParkedTotal = maxParked
        settings.storage = try storage()
        settings.instance = instance
        var policy = ApiSession.Policy()
        policy.retries = max(0, swapiRetries)
        policy.timeout = .milliseconds(Int64(max(0.001, swapiTimeout) * 1000))
        policy.deadline = policy.timeout * (policy.retries + 1) + .seconds(1)
        let dependencies: DependencyValues
        do {
            dependencies = try StarWarsApp.dependencies(swapiURL: swapiUrl, latency: .milliseconds(max(0, swapiLatencyMs)), policy: policy)
        } catch {
            throw ValidationError("\(error)")
        }
        let app = Application(configuration: settings, catalogue: StarWarsApp.catalogue(), dependencies: dependencies, logger: logger)
        // SIGINT and SIGTERM start a graceful shutdown: parked requests are answered, the server
        // stops and every session ends; then `run()` returns and the process exits 0.
        let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [.sigint, .sigterm], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            let port: Int
            do {
                port = try await app.listeningPort
            } catch {
                group.cancelAll()
                throw ValidationError("\(error)")
            }
            FileHandle.standardOutput.write(Data("MVVMServer listening on http://\(host):\(port)\n".utf8))
            try await group.waitForAll()
        }
        logger.info("stopped")
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
