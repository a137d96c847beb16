import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches paths under a base URL over HTTP with URLSession. A path that is already an
/// absolute URL (a `next` page link) is fetched as it is.
public struct URLSessionTransport: ApiTransport {
    /// The base URL, e.g. `https://swapi.dev/api/`.
    public let baseURL: URL

    /// Makes a transport for a base URL (a trailing slash is added when missing).
    public init(baseURL: URL) {
        self.baseURL = baseURL.absoluteString.hasSuffix("/") ? baseURL : baseURL.appendingPathComponent("")
    }

    /// GETs the path.
    public func fetch(_ path: String) async throws -> (status: Int, body: Data) {
        let url = path.hasPrefix("http://") || path.hasPrefix("https://") ? URL(string: path) : URL(string: path, relativeTo: baseURL)
        guard let url else { throw ApiError.unreachable("invalid URL") }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        do {
            let (body, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as URLError where error.code == .timedOut {
            throw ApiError.timedOut
        } catch let error as URLError {
            throw ApiError.unreachable("URL error \(error.code.rawValue)")
        } catch {
            throw ApiError.unreachable("transport error")
        }
    }
}
