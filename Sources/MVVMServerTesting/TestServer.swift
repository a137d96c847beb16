import Foundation
import Logging
import MVVMClient
import MVVMCore
import MVVMServer
import OpenAPIRuntime

/// An app's catalogue served for the length of a test, in either ``TestMode``, and the client
/// that talks to it; the same test body runs in both modes:
/// ```swift
/// @Test(arguments: TestMode.allCases)
/// func increments(mode: TestMode) async throws {
///     try await TestServer(catalogue: CounterApp.catalogue).test(mode) { client in
///         let counter = try await client.createSession().scene("counter", input: Input.self, output: Output.self)
///         #expect(try await counter.perform("increment").state.output.count == 1)
///     }
/// }
/// ```
/// Each ``test(_:_:)`` serves a new `Application`: no session outlives it.
public struct TestServer: Sendable {
    /// The scenes.
    public var catalogue: SceneCatalogue
    /// The services the factories get: fakes, for a test.
    public var dependencies: DependencyValues
    /// The settings; a live test listens on a free loopback port whatever the port says.
    public var configuration: ApplicationConfiguration
    /// Where the application logs (warnings and worse by default).
    public var logger: Logger
    /// Whether every answer the client reads is checked against the app's contract
    /// (`GET /openapi.json`): on by default; an answer that is not what the contract promises
    /// fails the call with ``ContractViolation``, naming the member at fault.
    public var checksAnswers = true

    /// A server for `catalogue`, with the services in `dependencies`.
    public init(
        catalogue: SceneCatalogue, dependencies: DependencyValues = DependencyValues(),
        configuration: ApplicationConfiguration = ApplicationConfiguration(), logger: Logger? = nil
    ) {
        self.catalogue = catalogue
        self.dependencies = dependencies
        self.configuration = configuration
        self.logger =
            logger
            ?? {
                var quiet = Logger(label: "mvvmserver.test")
                quiet.logLevel = .warning
                return quiet
            }()
    }

    /// A server for `catalogue` whose services are made once the settings are known, as the
    /// entry point makes an app's (`Application.main(…, makeDependencies:)`): `makeDependencies`
    /// is given the values every app starts from, whose `DependencyValues.clock` is, with
    /// `configuration.testing`, the test clock, which waits on each session's own time within
    /// its work, so that `SessionClient.advanceClock(by:wait:)` moves one session's and
    /// `MVVMClient.advanceClock(by:wait:)` every session's.
    /// - Throws: what `makeDependencies` throws.
    public init(
        catalogue: SceneCatalogue, configuration: ApplicationConfiguration = ApplicationConfiguration(), logger: Logger? = nil,
        makeDependencies: (DependencyValues) throws -> DependencyValues
    ) rethrows {
        var base = DependencyValues()
        if configuration.testing { base.clock = SessionRoutedClock(server: ManualClock()) }
        self.init(catalogue: catalogue, dependencies: try makeDependencies(base), configuration: configuration, logger: logger)
    }

    /// Serves the app in `mode` while `body` runs with a client of it; then ends every session
    /// (and, live, shuts the server down) before returning what `body` returned.
    public func test<Result: Sendable>(_ mode: TestMode, _ body: (MVVMClient) async throws -> Result) async throws -> Result {
        var configuration = configuration
        // In memory on purpose, unless the test gives a storage.
        configuration.warnsOfUnsavedState = false
        if mode == .live {
            configuration.http.host = "127.0.0.1"
            configuration.http.port = 0
        }
        let app = Application(configuration: configuration, catalogue: catalogue, dependencies: dependencies, logger: logger)
        let middlewares: [any ClientMiddleware] = checksAnswers ? [ContractMiddleware(check: ContractCheck(contract: app.contract))] : []
        switch mode {
        case .router:
            return try await app.servingInProcess { router in
                try await body(
                    MVVMClient(serverURL: InProcessTransport.serverURL, transport: InProcessTransport(router: router), middlewares: middlewares))
            }
        case .live:
            let running = Task { try await app.run() }
            let port: Int
            do {
                port = try await app.listeningPort
            } catch {
                running.cancel()
                _ = try? await running.value
                throw error
            }
            let client = MVVMClient(serverURL: URL(string: "http://127.0.0.1:\(port)")!, middlewares: middlewares)
            let result: Swift.Result<Result, any Error>
            do { result = .success(try await body(client)) } catch { result = .failure(error) }
            running.cancel()
            _ = try? await running.value
            return try result.get()
        }
    }
}
