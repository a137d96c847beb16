import Foundation
import Logging
import MVVMServer
import ServerTestSupport
import TestSupport
import Testing

/// `Application` as a swift-service-lifecycle `Service`: `run()` serves until it is cancelled or
/// a graceful shutdown comes, then answers what is parked, stops and ends every session; the
/// executable does the same on SIGINT and SIGTERM, in a `ServiceGroup`.
@Suite("The application's service lifecycle")
struct ApplicationLifecycleTests {
    /// A scene whose view models count their clearing in the `cleared` dependency.
    final class Watched: ViewModel {
        struct Output: Codable, Sendable, Equatable {
            var ready = true
        }

        var input = EmptyInput()
        let output = Output()
        let cleared: Tally

        init(cleared: Tally) {
            self.cleared = cleared
        }

        func onCleared() {
            cleared.increment()
        }
    }

    private enum ClearedKey: DependencyKey {
        static let defaultValue = Tally()
    }

    static func catalogue() -> SceneCatalogue {
        SceneCatalogue(
            scenes: [
                Scene(
                    "watched", key: "watched", viewModel: Watched.self,
                    factory: SingleViewModelFactory { extras in
                        Watched(cleared: extras.dependencies[ClearedKey.self])
                    })
            ], rootKey: "watched")
    }

    static func quietLogger() -> Logger {
        var logger = Logger(label: "lifecycle-test")
        logger.logLevel = .warning
        return logger
    }

    static func configuration(port: Int = 0) -> ApplicationConfiguration {
        var configuration = ApplicationConfiguration()
        configuration.http.port = port
        return configuration
    }

    @Test("Cancelling run() answers the parked long-polls, stops the server and ends every session")
    func cancellationShutsDown() async throws {
        let cleared = Tally()
        var dependencies = DependencyValues()
        dependencies[ClearedKey.self] = cleared
        let server = try await TestApplication(catalogue: Self.catalogue(), dependencies: dependencies)
        let first = try await server.createSession()
        _ = try await server.createSession()
        let state = try await server.request("GET", "/sessions/\(first)/scenes/watched")
        let version = try #require(state.json["version"] as? Int)
        let port = server.port
        let parked = Task {
            try await TestHTTPClient.request(port: port, "GET", "/sessions/\(first)/scenes/watched?since=\(version)&wait=30", timeout: 20)
        }
        #expect(try await eventually { server.app.parkedConnectionCount == 1 }, "the long-poll parks")
        #expect(cleared.value == 0)

        await server.stop()

        let answer = try await parked.value
        #expect(answer.status == 503, "a parked request is answered when the server stops, not left hanging")
        #expect(cleared.value == 2, "both sessions' view models were cleared by the time run() returned")
        await #expect(throws: HTTPServerError.self) { _ = try await server.app.listeningPort }
        await #expect(throws: (any Error).self, "nothing listens any more") {
            _ = try await TestHTTPClient.request(port: port, "GET", "/health", timeout: 2)
        }
    }

    @Test("A ServiceGroup's graceful shutdown ends run() the same way")
    func gracefulShutdownThroughServiceGroup() async throws {
        let cleared = Tally()
        var dependencies = DependencyValues()
        dependencies[ClearedKey.self] = cleared
        let app = Application(
            configuration: Self.configuration(), catalogue: Self.catalogue(), dependencies: dependencies, logger: Self.quietLogger())
        let group = ServiceGroup(configuration: .init(services: [app], logger: Self.quietLogger()))
        let running = Task { try await group.run() }
        let port = try await app.listeningPort
        let created = try await TestHTTPClient.request(port: port, "POST", "/sessions")
        #expect(created.status == 201)

        await group.triggerGracefulShutdown()
        try await running.value

        #expect(cleared.value == 1)
        await #expect(throws: HTTPServerError.self) { _ = try await app.listeningPort }
    }

    @Test("A port in use: run() throws, and so does listeningPort, with the same reason")
    func portInUse() async throws {
        let first = try await TestApplication(catalogue: Self.catalogue())
        defer { Task { await first.stop() } }
        let second = Application(configuration: Self.configuration(port: first.port), catalogue: Self.catalogue(), logger: Self.quietLogger())
        let waiting = Task { try await second.listeningPort }
        let thrown = await #expect(throws: HTTPServerError.self) { try await second.run() }
        let learned = await #expect(throws: HTTPServerError.self) { _ = try await waiting.value }
        #expect(thrown?.description.contains("cannot listen on 127.0.0.1:\(first.port)") == true)
        #expect(learned == thrown)
        #expect(try await TestHTTPClient.request(port: first.port, "GET", "/health").status == 200, "the first keeps serving")
        await first.stop()
    }

    @Test("A second run() while the first serves is refused")
    func runOnceAtATime() async throws {
        let server = try await TestApplication(catalogue: Self.catalogue())
        await #expect(throws: HTTPServerError.self) { try await server.app.run() }
        #expect(try await server.request("GET", "/health").status == 200)
        await server.stop()
    }

    @Test("A task waiting for the port is cancelled cleanly")
    func waitingForThePortIsCancellable() async throws {
        let app = Application(configuration: Self.configuration(), catalogue: Self.catalogue(), logger: Self.quietLogger())
        let waiting = Task { try await app.listeningPort }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiting.value }
    }

    /// The sanitizer passes (`scripts/sanitize`, which sets `MVVM_TEST_TARGETS`) build the test
    /// targets alone, without the server executable this test starts.
    @Test(
        "The server executable stops cleanly, exit 0, on SIGTERM and on SIGINT",
        .disabled(if: ProcessInfo.processInfo.environment["MVVM_TEST_TARGETS"] != nil, "the sanitizer passes do not build the server executable"),
        arguments: [SIGTERM, SIGINT]
    )
    func executableStopsOnSignals(_ signal: Int32) async throws {
        let directory = CommandLine.arguments[0].split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let executable = directory + "/server"
        try #require(access(executable, X_OK) == 0, "the server is built beside the tests")
        let server = try ChildProcess(executable, ["--port", "0", "--state", "none", "--log-level", "warning"])
        let line = try await TestHTTPClient.onThread { server.firstLine() }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "the listening line names the port: \(line)")
        let created = try await TestHTTPClient.request(port: port, "POST", "/sessions")
        #expect(created.status == 201)

        server.send(signal)
        #expect(try await server.exitStatus(within: .seconds(10)) == 0, "it exits, with status 0")
    }
}
