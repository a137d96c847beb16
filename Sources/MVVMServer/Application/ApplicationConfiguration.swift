import MVVMHTTP

/// The settings of an ``Application``: its HTTP server, sessions and long-poll limits.
public struct ApplicationConfiguration: Sendable {
    /// The HTTP server's settings.
    public var http = HTTPServerConfiguration()
    /// The longest `wait` a long-poll may ask for, in seconds; longer ones are cut to it.
    public var maxWaitSeconds: Double = 60
    /// Seconds without a request after which a session expires (a parked request or an open
    /// stream keeps it alive).
    public var sessionIdleSeconds: Double = 1800
    /// The most sessions alive at once; at the cap the least recently used idle one is evicted.
    public var maxSessions: Int = 10_000
    /// The most requests parked and Server-Sent Events streams open on one session (many
    /// clients may watch one view model).
    public var maxParkedPerSession: Int = 2048
    /// The most requests parked and streams open in all; keep it below the connection limit.
    public var maxParkedTotal: Int = 12_000
    /// How many events each session keeps.
    public var eventHistory: Int = 256
    /// Where sessions are saved, so that they survive a restart or a crash of the server (and
    /// are shared by the servers of a cluster, in PostgreSQL). `nil` keeps them in memory when
    /// the app makes its ``Application`` itself; through the entry point
    /// (``Application/main(name:catalogue:dependencies:configuration:logLevel:storageSchemes:arguments:)``),
    /// `nil` means the app's default file, and ``SessionStorage/memory`` keeps them in memory.
    public var storage: SessionStorage?
    /// The server's name, sent in the `MVVM-Instance` header of every answer and reported by
    /// `/health`; `nil` names it by the host's name and the port it listens on.
    public var instance: String?
    /// Testing mode: the clock in every factory's ``DependencyValues`` is a ``ManualClock`` that
    /// only the test moves (`POST /testing/clock/advance`), and the `/testing` routes exist.
    /// Off by default; a server in testing mode refuses to start on a host that is not loopback.
    public var testing = false
    /// Whether a view model writing its saved state while no store saves it logs a warning
    /// (once per scene); the testing product, in memory on purpose, turns it off.
    package var warnsOfUnsavedState = true
    /// The version reported by `/health`.
    package var version: String = "0.1.0"

    /// The defaults.
    public init() {}

    /// Why this configuration cannot start: testing mode on a host that is not loopback;
    /// `nil` when it can.
    var testingHostRefusal: String? {
        guard testing, !Self.isLoopback(http.host) else { return nil }
        return "testing mode (--testing) serves on loopback only, and --host is \(http.host); use 127.0.0.1"
    }

    /// Whether `host` is a loopback address: `localhost` or one of 127.0.0.0/8.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
