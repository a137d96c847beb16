import Logging

/// The settings of an HTTP server, each with a default that suits a local server.
public struct HTTPServerConfiguration: Sendable {
    /// The IPv4 address to bind; loopback unless asked otherwise. `localhost` means `127.0.0.1`.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks a free one (the application reports the one it took: `Application.listeningPort`).
    public var port: Int = 8080
    /// Host names the server answers besides IP addresses, `localhost` and names under
    /// `.localhost` (with any port): a name, `*.name` for every name under it, or `*` for any
    /// host. A request for another host is refused (421), so that a page of a domain re-pointed
    /// at this machine (DNS rebinding) cannot reach the server. Empty by default.
    public var allowedHosts: [String] = []
    /// Origins (`http://host:port`) whose pages may send requests and read the answers (CORS)
    /// besides the server's own. A request with another `Origin` is refused (403); a request
    /// without one (curl, any client outside a browser) is unaffected. Empty by default.
    public var allowedOrigins: [String] = []
    /// How many connections are served at once; more are refused. Keep it above the
    /// number of parked requests you expect, and below the process's file-descriptor limit.
    public var maxConnections: Int = 16_384
    /// Seconds a connection may stay idle (no bytes moving) before it is closed.
    /// Parked requests are not idle: they have their own deadline.
    public var connectionTimeoutSeconds: Int = 30
    /// Seconds between two heartbeats of a streamed response (a comment line of a Server-Sent
    /// Events stream), so that proxies and clients can tell a quiet stream from a dead one.
    public var streamHeartbeatSeconds: Double = 15
    /// The largest request body accepted; larger ones answer 413.
    public var maxBodyBytes: Int = 1 << 20
    /// libmicrohttpd's memory pool per connection, which also bounds the request line and
    /// headers. A small pool keeps thousands of parked connections cheap.
    public var connectionMemoryLimitBytes: Int = 4 * 1024
    /// Threads polling the sockets (libmicrohttpd's thread pool, on epoll).
    public var threads: Int = 2
    /// The kernel's queue of connections not yet accepted.
    package var listenBacklog: Int = 4096
    /// The deadline of a parked request whose handler did not set one.
    package var defaultParkDeadline: Duration = .seconds(120)
    /// Told of every answer: the index of the route that handled it (-1 when none did), the
    /// status, the nanoseconds from the request's arrival to its answer, and the
    /// ``PollingThread/number`` of the polling thread it is called on. Keep it short and
    /// non-blocking.
    package var onAnswer: (@Sendable (_ route: Int, _ status: Int, _ nanoseconds: UInt64, _ thread: Int) -> Void)?
    /// The metadata of an answered request's log line, beside its method, status and duration:
    /// what the route index and the path may say (e.g. the route's pattern, the path with its
    /// secrets shortened).
    package var requestLogMetadata: @Sendable (_ route: Int, _ path: String) -> Logger.Metadata = { _, path in ["path": .string(path)] }

    /// The header fields handlers read, by name (case does not matter); the runtime hands a
    /// handler only those (``HTTPRequest/fields``), and turns no other field into strings.
    /// `nil`, the default, hands every field.
    package var headerFieldsRead: [String]?

    /// The header fields and `Accept` media types that send a `GET` to its handler even when
    /// a kept answer for its target still holds. None by default.
    package var reuseExclusions = ReuseExclusions()

    /// The defaults.
    package init() {}
}
