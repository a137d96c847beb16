/// Why the HTTP server could not start, or is not running.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A sentence saying what went wrong.
    public let description: String

    package static func invalidHost(_ host: String) -> Self {
        Self(description: "'\(host)' is not an IPv4 address (use e.g. 127.0.0.1 or 0.0.0.0)")
    }

    package static func cannotListen(host: String, port: Int, reason: String) -> Self {
        Self(description: "cannot listen on \(host):\(port): \(reason)")
    }

    package static func invalidAllowedEntry(_ refusal: LocalClientPolicy.Refusal) -> Self {
        switch refusal.kind {
        case .host:
            Self(description: "'\(refusal.entry)' is not a host name to allow (a name, *.name or *)")
        case .origin:
            Self(description: "'\(refusal.entry)' is not an origin to allow (http:// or https://, a host and an optional port)")
        }
    }

    package static let alreadyStarted = Self(description: "the server is already started")

    package static let stopped = Self(description: "the server has stopped")
}
