import Foundation
import Logging
import MVVMServer
import TestSupport

/// The real application on a free loopback port, for tests that drive it over HTTP: its
/// `run()` serves in a task of its own until ``stop()`` cancels it.
public final class TestApplication: Sendable {
    /// The application.
    public let app: Application
    /// Its port.
    public let port: Int
    private let running: Task<Void, any Error>

    /// Starts an application for `catalogue` on port 0 and waits until it listens; it logs
    /// warnings and worse unless given another logger.
    public init(
        catalogue: SceneCatalogue, dependencies: DependencyValues = DependencyValues(), logger: Logger? = nil,
        configure: (inout ApplicationConfiguration) -> Void = { _ in }
    ) async throws {
        var configuration = ApplicationConfiguration()
        configuration.http.port = 0
        configure(&configuration)
        var quiet = Logger(label: "test")
        quiet.logLevel = .warning
        let logger = logger ?? quiet
        let app = Application(configuration: configuration, catalogue: catalogue, dependencies: dependencies, logger: logger)
        let running = Task { try await app.run() }
        do {
            port = try await app.listeningPort
        } catch {
            running.cancel()
            throw error
        }
        self.app = app
        self.running = running
    }

    /// Sends a request.
    public func request(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil, timeout: Double = 10) async throws
        -> TestResponse
    {
        try await TestHTTPClient.request(port: port, method, path, headers: headers, body: body, timeout: timeout)
    }

    /// Sends a JSON body, with `headers` beside its `Content-Type`.
    public func json(_ method: String, _ path: String, _ object: Any, headers: [String: String] = [:]) async throws -> TestResponse {
        try await TestHTTPClient.json(port: port, method, path, object, headers: headers)
    }

    /// The value of an unlabelled metric in `GET /metrics`.
    public func metric(_ name: String) async throws -> Int? {
        MetricsText.value(of: name, in: try await request("GET", "/metrics").text)
    }

    /// Returns once at least `count` requests are parked (`mvvm_parked_requests`): a long-poll
    /// sent before a change then waits for it, instead of being answered by a later read.
    public func waitUntilParked(_ count: Int = 1) async throws {
        let parked = try await eventually(within: .seconds(10), every: .milliseconds(5)) {
            try await self.metric("mvvm_parked_requests") ?? 0 >= count
        }
        guard parked else { throw TestHTTPClient.Failure(description: "\(count) requests were not parked") }
    }

    /// Creates a session and returns its id.
    public func createSession() async throws -> String {
        let response = try await request("POST", "/sessions")
        guard response.status == 201, let id = response.json["id"] as? String else {
            throw TestHTTPClient.Failure(description: "session not created: \(response.status) \(response.text)")
        }
        return id
    }

    /// Stops the application (its `run()` is cancelled: a shutdown as on SIGTERM) and waits
    /// until it has: parked requests answered, the server stopped, every session ended.
    public func stop() async {
        running.cancel()
        _ = try? await running.value
    }

    /// Runs `body` with the application and a new session's id, then stops the application,
    /// also when `body` throws.
    public func withSession(_ body: (TestApplication, String) async throws -> Void) async throws {
        do {
            try await body(self, try await createSession())
        } catch {
            await stop()
            throw error
        }
        await stop()
    }
}
