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
    /// Whether a view model writing its saved state while no store saves it logs a warning
    /// (once per scene); the testing product, in memory on purpose, turns it off.
    package var warnsOfUnsavedState = true
    /// The version reported by `/health`.
    package var version: String = "0.1.0"

    /// The defaults.
    public init() {}
}
