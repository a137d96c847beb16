/// The long-poll parameters of a GET: `since` (a version) and `wait` (seconds).
package struct PollParameters: Sendable {
    /// Parameters already read: `since` and `wait` as given.
    package init(since: UInt64?, wait: Duration?) {
        self.since = since
        self.wait = wait
    }

    /// The version the client has; `nil` when it asked for none.
    package var since: UInt64?
    /// How long to wait for a newer version, cut to the maximum; `nil` when not asked.
    package var wait: Duration?

    /// The largest version a client may send, `Int64.max`: every version a server reaches fits,
    /// and so does every language's 64-bit integer.
    package static let maxVersion = UInt64(Int64.max)

    /// A version as a client sends it: 1 to 20 digits, at most ``maxVersion``; `nil` otherwise.
    package static func version(_ text: some StringProtocol) -> UInt64? {
        guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = UInt64(text),
            value <= maxVersion
        else { return nil }
        return value
    }

    /// Parses `since` and `wait`; a malformed one is a 400 naming it; `wait` is cut to `maxWait`.
    package init(_ query: [String: String], maxWait: Double) throws(HTTPError) {
        if query.isEmpty { return }
        if let text = query["since"] {
            guard let value = Self.version(text) else {
                throw HTTPError(.invalidParameter, detail: "'since' must be a whole number from 0 to \(Self.maxVersion).", member: "since")
            }
            since = value
        }
        if let text = query["wait"] {
            guard text.utf8.count <= 32, let seconds = Double(text), seconds.isFinite, seconds >= 0,
                text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E })
            else {
                throw HTTPError(.invalidParameter, detail: "'wait' must be a number of seconds, 0 or more.", member: "wait")
            }
            // A cap that is not a sensible number of seconds (negative, NaN, or so large that the
            // milliseconds overflow) is treated as the nearest sensible one: no setting can trap.
            let cap = maxWait.isNaN ? 0 : min(max(maxWait, 0), 1e9)
            wait = .milliseconds(Int64(min(seconds, cap) * 1000))
        }
    }
}
