/// Why an ``HTTPServer`` could not start.
package struct HTTPServerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A sentence saying what went wrong.
    package let description: String

    static func invalidHost(_ host: String) -> Self {
        Self(description: "'\(host)' is not an IPv4 address (use e.g. 127.0.0.1 or 0.0.0.0)")
    }

    static func cannotListen(host: String, port: Int, reason: String) -> Self {
        Self(description: "cannot listen on \(host):\(port): \(reason)")
    }

    static let alreadyStarted = Self(description: "the server is already started")
}
