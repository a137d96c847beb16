import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client of an MVVMServer API: creates and resumes sessions, whose scenes it reads and
/// drives with the app's own `Input` and `Output` types.
///
/// Every call that the server refuses throws ``ProblemDetails``.
/// ```swift
/// let client = MVVMClient(serverURL: URL(string: "http://127.0.0.1:8080")!)
/// let session = try await client.createSession()
/// let counter = session.scene("counter", input: CounterInput.self, output: CounterOutput.self)
/// let state = try await counter.perform("increment")
/// ```
public struct MVVMClient: Sendable {
    let api: Client
    /// Opens Server-Sent Events streams; `nil` over a transport given by the caller (scene
    /// updates then long-poll).
    let streams: EventStreamOpener?

    /// A client of the server at `serverURL`, over `transport`: any swift-openapi-runtime
    /// transport (the testing product's in-process one, say). Scene updates long-poll.
    /// `middlewares` see each request and its answer, in order, before the client reads it.
    public init(serverURL: URL, transport: any ClientTransport, middlewares: [any ClientMiddleware] = []) {
        api = Client(serverURL: serverURL, transport: transport, middlewares: [ProblemMiddleware()] + middlewares)
        streams = nil
    }

    /// A client of the server at `serverURL` over `URLSession`, whose requests may wait as long
    /// as the longest long-poll (`requestTimeout`, 120 seconds by default). Scene updates come
    /// over Server-Sent Events streams, which are given up after `requestTimeout` without a
    /// byte (the server sends a heartbeat every 15 seconds by default). `middlewares` see each
    /// request and its answer, in order, before the client reads it (not the streams).
    public init(serverURL: URL, requestTimeout: Duration = .seconds(120), middlewares: [any ClientMiddleware] = []) {
        let configuration = URLSessionConfiguration.ephemeral
        let seconds = Double(requestTimeout.components.seconds) + Double(requestTimeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.httpMaximumConnectionsPerHost = 64
        let transport = URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration)))
        api = Client(serverURL: serverURL, transport: transport, middlewares: [ProblemMiddleware()] + middlewares)
        streams = EventStreamOpener(serverURL: serverURL, idleTimeout: requestTimeout)
    }

    /// Creates a session (`POST /sessions`): it starts with the app's root scene shown.
    public func createSession() async throws -> SessionClient {
        let created = try await call { try await api.createSession().created.body.json }
        return SessionClient(api: api, streams: streams, id: created.id)
    }

    /// A session created before, by its id (one a client kept): nothing is sent until it is used.
    public func session(id: String) -> SessionClient {
        SessionClient(api: api, streams: streams, id: id)
    }

    /// The names of the app's scenes with their key patterns, input members and actions
    /// (`GET /scenes`), and the key of the scene every session starts with.
    public func catalogue() async throws -> (root: String, scenes: [SceneDescription]) {
        let catalogue = try await call { try await api.getCatalogue().ok.body.json }
        return (catalogue.root, catalogue.scenes.map(SceneDescription.init))
    }
}

/// Runs a generated operation, throwing the ``ProblemDetails`` of a refused request as they
/// are (not wrapped in the runtime's `ClientError`).
func call<Result>(_ operation: () async throws -> Result) async throws -> Result {
    do {
        return try await operation()
    } catch {
        throw error.unwrappingClientError
    }
}
