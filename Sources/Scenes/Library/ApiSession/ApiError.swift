/// Why an API call failed, and whether trying again may help.
public enum ApiError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server could not be reached (refused, reset, DNS).
    case unreachable(String)
    /// One attempt took longer than the per-request timeout.
    case timedOut
    /// The server answered with an error status.
    case status(Int)
    /// The body did not decode.
    case decoding(String)
    /// The total deadline passed before an attempt succeeded.
    case deadlineExceeded(lastError: String)

    /// Whether another attempt may succeed: network failures, timeouts, 408, 429 and 5xx.
    public var isTransient: Bool {
        switch self {
        case .unreachable, .timedOut: true
        case .status(let code): code == 408 || code == 429 || code >= 500
        case .decoding, .deadlineExceeded: false
        }
    }

    /// A sentence for the state document (no internal paths).
    public var description: String {
        switch self {
        case .unreachable(let reason): "the service could not be reached (\(reason))"
        case .timedOut: "the service did not answer in time"
        case .status(let code): "the service answered \(code)"
        case .decoding(let reason): "the service's answer could not be read (\(reason))"
        case .deadlineExceeded(let last): "the service kept failing until the deadline (last: \(last))"
        }
    }
}
