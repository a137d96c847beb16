import Foundation
import Logging
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport

/// The real application on a free loopback port, for tests that drive it over HTTP.
public final class TestApplication: Sendable {
    /// The application.
    public let app: Application
    /// Its port.
    public let port: Int

    /// Starts an application for `catalogue` on port 0.
    public init(catalogue: SceneCatalogue, dependencies: DependencyValues = DependencyValues(), configure: (inout ApplicationConfiguration) -> Void = { _ in }) throws {
        var configuration = ApplicationConfiguration()
        configuration.http.port = 0
        configure(&configuration)
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        app = Application(configuration: configuration, catalogue: catalogue, dependencies: dependencies, logger: logger)
        try app.start()
        port = app.port
    }

    /// Sends a request.
    public func request(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil, timeout: Double = 10) async throws -> TestResponse {
        try await TestHTTPClient.request(port: port, method, path, headers: headers, body: body, timeout: timeout)
    }

    /// Sends a JSON body.
    public func json(_ method: String, _ path: String, _ object: Any) async throws -> TestResponse {
        try await TestHTTPClient.json(port: port, method, path, object)
    }

    /// Creates a session and returns its id.
    public func createSession() async throws -> String {
        let response = try await request("POST", "/sessions")
        guard response.status == 201, let id = response.json["id"] as? String else {
            throw TestHTTPClient.Failure(description: "session not created: \(response.status) \(response.text)")
        }
        return id
    }

    /// Stops the application.
    public func stop() async {
        await app.stop()
    }
}
