import Foundation

/// Fetches the raw bytes behind a path (e.g. `films/1/`), from the network or elsewhere.
/// ``ApiSession`` adds retries, timeouts and decoding on top of it.
public protocol ApiTransport: Sendable {
    /// The status and body of one request. Throws ``ApiError`` for transport failures.
    func fetch(_ path: String) async throws -> (status: Int, body: Data)
}
