/// How a ``TestServer`` serves the app to a test.
public enum TestMode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// In-process: each request goes straight to the router, with no socket; fast and
    /// deterministic.
    case router
    /// Live: the app listens on a free loopback port and the client speaks HTTP to it.
    case live

    /// The mode's name.
    public var description: String {
        rawValue
    }
}
