import ArgumentParser

/// The settings every app takes from its command line and its environment, as the bundled
/// `server` does: where it listens, where it saves sessions, how much it logs, and its limits.
///
/// ``Application/main(name:catalogue:dependencies:configuration:logLevel:storageSchemes:arguments:)``
/// parses them for an app; an app with flags of its own adds them to its command with
/// `@OptionGroup var server: ServerOptions` and calls
/// ``Application/serve(name:options:catalogue:dependencies:configuration:logLevel:storageSchemes:)``.
///
/// Each setting is taken from its flag, else from its environment variable (`MVVM_` and the
/// flag's name in capitals, `--max-wait` as `MVVM_MAX_WAIT`), else from the app's code (the
/// ``ApplicationConfiguration`` it passes), else from the framework's default.
public struct ServerOptions: ParsableArguments, Sendable {
    @Option(help: "The IPv4 address to listen on (default 127.0.0.1, loopback only; env MVVM_HOST).")
    public var host: String?

    @Option(help: "The TCP port; 0 picks a free one (default 8080; env MVVM_PORT).")
    public var port: Int?

    @Option(
        help: """
            Where sessions are saved, so that they survive a restart or a crash: an SQLite file, a \
            URL of a storage the app links (postgres://USER@HOST:PORT/DB with MVVMPostgres), or \
            `none` to keep them in memory only. Default: $XDG_STATE_HOME/<app>/state.sqlite, else \
            ~/.local/state/<app>/state.sqlite; with --testing, a file of the server's own in a \
            temporary folder, removed at exit (env MVVM_STATE).
            """)
    public var state: String?

    @Option(
        help: """
            For an SQLite file: normal, a saved change survives a crash of the server; full, it \
            survives a power loss too, at an fsync per commit (default normal; env MVVM_STATE_SYNC).
            """)
    public var stateSync: StateSync?

    @Option(help: "trace, debug (a line per answered request), info, notice, warning, error or critical (default info; env MVVM_LOG_LEVEL).")
    public var logLevel: String?

    @Option(
        help:
            "This server's name, in the MVVM-Instance header of every answer and in /health (default: the host's name and the port; env MVVM_INSTANCE)."
    )
    public var instance: String?

    @Option(help: "Connections served at once; more are refused (default 16384; env MVVM_MAX_CONNECTIONS).")
    public var maxConnections: Int?

    @Option(help: "Threads polling the sockets, 1 to 64 (default 2; env MVVM_THREADS).")
    public var threads: Int?

    @Option(help: "Seconds an idle connection is kept (default 30; env MVVM_CONNECTION_TIMEOUT).")
    public var connectionTimeout: Int?

    @Option(help: "The largest request body accepted, in bytes (default 1048576; env MVVM_MAX_BODY_BYTES).")
    public var maxBodyBytes: Int?

    @Option(help: "Memory per connection in bytes, which bounds the request line and headers (default 4096; env MVVM_CONNECTION_MEMORY_LIMIT).")
    public var connectionMemoryLimit: Int?

    @Option(help: "The longest long-poll wait in seconds, 0 to 86400 (default 60; env MVVM_MAX_WAIT).")
    public var maxWait: Double?

    @Option(help: "Seconds without a request after which a session expires (default 1800; env MVVM_SESSION_IDLE_TIMEOUT).")
    public var sessionIdleTimeout: Double?

    @Option(help: "The most sessions alive at once (default 10000; env MVVM_MAX_SESSIONS).")
    public var maxSessions: Int?

    @Option(help: "The most long-polls parked and streams open on one session (default 2048; env MVVM_MAX_PARKED_PER_SESSION).")
    public var maxParkedPerSession: Int?

    @Option(help: "The most long-polls parked and streams open in all; keep it below --max-connections (default 12000; env MVVM_MAX_PARKED).")
    public var maxParked: Int?

    @Option(help: "Seconds between two heartbeats of a Server-Sent Events stream, 0.05 to 86400 (default 15; env MVVM_HEARTBEAT_SECONDS).")
    public var heartbeatSeconds: Double?

    @Option(
        name: .customLong("allowed-host"),
        help: """
            A host name the server answers besides IP addresses, localhost and names under \
            .localhost: a name, *.name for every name under it, or * for any; repeatable (env \
            MVVM_ALLOWED_HOSTS, comma-separated).
            """)
    public var allowedHosts: [String] = []

    @Option(
        name: .customLong("allowed-origin"),
        help: """
            An origin (http://host:port) whose pages may call the server and read its answers \
            (CORS), besides the server's own; repeatable (env MVVM_ALLOWED_ORIGINS, comma-separated).
            """)
    public var allowedOrigins: [String] = []

    @Flag(help: "Testing mode: a test clock moved over HTTP, and the other /testing routes; loopback hosts only (env MVVM_TESTING=1).")
    public var testing = false

    @Flag(
        help:
            "Write the app's contract (what GET /openapi.json serves, indented) to standard output and exit, without serving: `<app> --contract > openapi.json`."
    )
    public var contract = false

    /// How durable a commit of an SQLite state file is.
    public enum StateSync: String, CaseIterable, ExpressibleByArgument, Sendable {
        /// A commit survives a crash of the server.
        case normal
        /// A commit survives a power loss too.
        case full
    }

    /// For swift-argument-parser, which fills the settings in as it parses: get a value with
    /// `ServerOptions.parse(arguments)` (`parse([])` for no setting given) or as an
    /// `@OptionGroup` of a command. The settings of an instance made with `init()` alone cannot
    /// be read.
    public init() {}
}
