import Foundation
import Logging
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMSupport
import ServiceLifecycle
import Synchronization

/// An MVVM app served over HTTP: each session is a context with its own store of view models,
/// routes map to the scenes of a ``SceneCatalogue``, state is served as JSON with long-poll.
///
/// A swift-service-lifecycle `Service`: ``run()`` serves until its task is cancelled or a
/// graceful shutdown is triggered, so an app runs in a `ServiceGroup` that turns SIGINT and
/// SIGTERM into a graceful shutdown:
/// ```swift
/// let app = Application(configuration: .init(), catalogue: catalogue, dependencies: services, logger: logger)
/// let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [.sigint, .sigterm], logger: logger))
/// try await group.run()
/// ```
public final class Application: Service, Sendable {
    /// The settings.
    package let configuration: ApplicationConfiguration
    /// The scenes.
    package let catalogue: SceneCatalogue
    /// The services given to every factory.
    package let dependencies: DependencyValues
    let logger: Logger
    let metrics = Metrics()
    /// The work the application starts on its own, each piece a child task of ``run()``.
    let work: BackgroundWork
    /// The live sessions.
    let sessions: Sessions
    /// Saving sessions, and serving saved ones again.
    let saved: SavedStateCoordinator
    /// The routes' handlers.
    let api: API
    /// Carries out the routes' replies.
    let delivery: ReplyDelivery
    private let facts: ServerFacts
    /// The test clock and the work meter, in testing mode.
    let testing: TestingMode?
    /// The HTTP server while the application serves.
    let server = Mutex<HTTPServer?>(nil)
    private let listening = ListeningPort()

    /// Makes the application; nothing listens until ``run()``. In testing mode, each session
    /// waits on a test clock of its own, and work outside sessions on the server's: the
    /// ``ManualClock`` set in `dependencies`, else a new one. The clock of `dependencies` the
    /// factories get is one that waits on the clock of the session whose work calls it.
    public init(
        configuration: ApplicationConfiguration, catalogue: SceneCatalogue, dependencies: DependencyValues = DependencyValues(), logger: Logger
    ) {
        var dependencies = dependencies
        if configuration.testing {
            let clock = dependencies.clock as? SessionRoutedClock ?? SessionRoutedClock(server: dependencies.clock as? ManualClock ?? ManualClock())
            dependencies.clock = clock
            testing = TestingMode(clock: clock)
        } else {
            testing = nil
        }
        self.configuration = configuration
        self.catalogue = catalogue
        self.dependencies = dependencies
        self.logger = logger
        let metrics = metrics
        let work = BackgroundWork(logger: logger)
        self.work = work
        let sessions = Sessions(
            catalogue: catalogue, dependencies: dependencies, configuration: configuration, metrics: metrics, work: work, logger: logger,
            testing: testing)
        self.sessions = sessions
        saved = SavedStateCoordinator(sessions: sessions, idleSeconds: configuration.sessionIdleSeconds, metrics: metrics, work: work, logger: logger)
        let contract = AppContract(catalogue: catalogue, framework: Self.frameworkContract)
        for warning in contract.warnings {
            logger.warning("The app's contract (GET /openapi.json) is not exact: \(warning)")
        }
        facts = ServerFacts(
            version: configuration.version,
            catalogueDocument: (try? JSONCoding.encode(CatalogueDocument(catalogue))) ?? Data(),
            indexDocument: (try? JSONCoding.encode(API.IndexDocument(version: configuration.version))) ?? Data(),
            openAPIDocument: Self.bundled("openapi", "yaml"),
            appContractDocument: contract.data)
        api = API(configuration: configuration, sessions: sessions, saved: saved, metrics: metrics, facts: facts, testing: testing)
        delivery = ReplyDelivery(
            work: work, contextCalls: WorkDrainer(maxDrainers: max(2, ProcessInfo.processInfo.activeProcessorCount), work: work), metrics: metrics)
    }

    /// The contract of an app of these scenes, as `GET /openapi.json` serves it, indented
    /// and ending with a newline: to commit beside the app, so that a change a client would
    /// notice shows in review (see `TestServer.contractChanges(since:)` in MVVMServerTesting).
    public static func contract(of catalogue: SceneCatalogue) -> Data {
        var writer = JSONBytesWriter()
        writer.writeIndented(AppContract(catalogue: catalogue, framework: frameworkContract).document)
        return Data(writer.bytes + [UInt8(ascii: "\n")])
    }

    /// What the contract of an app of these scenes cannot describe exactly, each naming its
    /// type and why (the server logs these as warnings at start); empty when every type of
    /// the app is described as the server writes it.
    public static func contractWarnings(of catalogue: SceneCatalogue) -> [String] {
        AppContract(catalogue: catalogue, framework: frameworkContract).warnings
    }

    /// The app's contract, `GET /openapi.json`.
    package var contract: JSONValue {
        JSONValue(json: facts.appContractDocument) ?? .object([:])
    }

    /// The routes of the API, in the order they are matched.
    package var router: Router {
        api.router
    }

    /// Serves until the calling task is cancelled or a graceful shutdown is triggered, then
    /// shuts down: answers every parked request, stops the HTTP server, ends every session and
    /// closes the state store. Everything the application runs meanwhile (the session sweeper,
    /// the server's timers, the state store's background work, and the work it starts on its
    /// own, such as saving or ending sessions) is a child task of this call: it has ended, or
    /// was cancelled and has ended, when this call returns.
    ///
    /// Call it once at a time; ``listeningPort`` tells when it listens.
    /// - Throws: `HTTPServerError` when the address cannot be bound, or when the application
    ///   is already running; an error naming the state file when it cannot be used (not a
    ///   database, damaged, newer, or in use by another server).
    public func run() async throws {
        defer { testing?.setRouting(nil) }
        guard let pieces = work.open() else {
            listening.failed(HTTPServerError.alreadyStarted)
            throw HTTPServerError.alreadyStarted
        }
        try await withThrowingTaskGroup(of: Void.self) { background in
            // The application's own work, and the store's (its connections, its writer),
            // outlive serving: they end once the shutdown has closed the store.
            background.addTask { await self.work.run(pieces) }
            let server: HTTPServer
            do {
                let router = try await openStateStore(instance: configuration.instance ?? Self.defaultInstanceName(port: configuration.http.port)) {
                    store in
                    background.addTask { await store.run(handedOver: { [weak self] id in self?.saved.letGo(id) }) }
                }
                server = try startServer(router: router)
            } catch {
                // The store closes with the coordinator once it holds it (a store that failed
                // before was closed by openStateStore).
                await saved.close()
                background.cancelAll()
                listening.failed(error)
                throw error
            }
            let name = configuration.instance ?? Self.defaultInstanceName(port: server.port)
            facts.instanceName = name
            server.addResponseHeader("MVVM-Instance", name)
            listening.bound(server.port)
            await withTaskGroup(of: Void.self) { timers in
                timers.addTask { await server.runTimers() }
                timers.addTask { await self.sweepSessions() }
                // Returns on a graceful shutdown, and throws when the task is cancelled: either
                // way, this is the end of serving.
                try? await gracefulShutdown()
                timers.cancelAll()
            }
            await shutDown(server)
            background.cancelAll()
        }
    }

    /// Serves in-process requests for as long as `body` runs, for the testing product: opens
    /// the state store (one whose background work needs ``StateStore/run(handedOver:)``,
    /// PostgreSQL, is not served in-process), runs the work the application starts on its own
    /// as child tasks of this call, and gives `body` the router. When `body` returns or throws,
    /// every session ends (saved sessions stay saved), the state store closes and that work
    /// ends, as in a shutdown.
    /// - Throws: an error naming the state file when it cannot be used; whatever `body` throws.
    package func servingInProcess<Result>(_ body: (InProcessRouter) async throws -> Result) async throws -> Result {
        defer { testing?.setRouting(nil) }
        guard let pieces = work.open() else { throw HTTPServerError.alreadyStarted }
        return try await withThrowingTaskGroup(of: Void.self) { background in
            background.addTask { await self.work.run(pieces) }
            let outcome: Swift.Result<Result, any Error>
            do {
                let router = try await openStateStore(instance: configuration.instance ?? "in-process") { _ in }
                outcome = .success(try await body(InProcessRouter(application: self, router: router)))
            } catch {
                outcome = .failure(error)
            }
            await sessions.endAll()
            await saved.close()
            background.cancelAll()
            return try outcome.get()
        }
    }

    /// The name of a server that was given none: the host's name and the port.
    static func defaultInstanceName(port: Int) -> String {
        ProcessInfo.processInfo.hostName + ":" + String(port)
    }

    /// The port the application listens on (the real one after starting on port 0): waits
    /// until ``run()`` has bound it.
    /// - Throws: the error that ended ``run()`` before it listened, `HTTPServerError` once it
    ///   has stopped, or `CancellationError` when the waiting task is cancelled.
    public var listeningPort: Int {
        get async throws { try await listening.value() }
    }

    /// Saves the last use of every session read since it was last saved (the session sweeper
    /// does it on its own); returns when committed.
    package func persistUses() async {
        await saved.persistUses()
    }

    /// The start of serving, served or in-process: refuses a testing mode that may not start,
    /// opens the state store as the server named `instance`, starts its background work with
    /// `running`, prepares it, and hands it to the saved-state coordinator; returns the routes.
    /// - Throws: the refusal, or the error of a store that cannot be used, which is closed then.
    private func openStateStore(instance: String, running: (any StateStore) -> Void) async throws -> Router {
        if let refusal = configuration.testingHostRefusal { throw ConfigurationError(description: refusal) }
        let store = try await configuration.storage?.open(instance, logger)
        do {
            if let store { running(store) }
            try await store?.prepare()
        } catch {
            await store?.close()
            throw error
        }
        let router = router
        testing?.setRouting(InProcessRouter(application: self, router: router))
        openSavedState(store, routing: router)
        return router
    }

    /// Hands `store` (if any) to the saved-state coordinator, which routes the requests that
    /// waited for a session taken over from it through `router`.
    private func openSavedState(_ store: (any StateStore)?, routing router: Router) {
        let delivery = delivery
        sessions.unsavedStateWarning.setSaving(store != nil || !configuration.warnsOfUnsavedState)
        saved.open(store) { request, responder in router.handle(request, responder: responder, delivery: delivery) }
    }

    /// Makes and starts the HTTP server, with the routes.
    private func startServer(router: Router) throws -> HTTPServer {
        let delivery = self.delivery
        var http = configuration.http
        http.defaultParkDeadline = .seconds(configuration.maxWaitSeconds + 60)
        http.requestLogMetadata = Self.requestLogMetadata(routes: router.routes)
        http.headerFieldsRead = RequestHeaderField.all
        http.reuseExclusions = RequestHeaderField.reuseExclusions
        let metrics = self.metrics
        metrics.name(routes: router.routes)
        http.onAnswer = { route, status, nanoseconds, thread in metrics.record(route: route, status: status, nanoseconds: nanoseconds, thread: thread)
        }
        let server = HTTPServer(configuration: http, logger: logger) { request, responder, thread in
            router.handle(request, responder: responder, thread: thread, delivery: delivery)
        }
        try self.server.withLock { running in
            guard running == nil else { throw HTTPServerError.alreadyStarted }
            try server.start()
            running = server
        }
        facts.countStreams { server.openStreamCount }
        return server
    }

    /// Answers every parked request, stops the HTTP server, then ends every session and closes
    /// the state store.
    private func shutDown(_ server: HTTPServer) async {
        listening.ended()
        await server.stop()
        self.server.withLock { $0 = nil }
        facts.countStreams { 0 }
        await sessions.endAll()
        await saved.close()
    }

    /// Ends the sessions idle for longer than the configuration allows, every quarter of that
    /// time (50 ms to 5 s), until the calling task is cancelled.
    private func sweepSessions() async {
        let interval = max(0.05, min(configuration.sessionIdleSeconds / 4, 5))
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(interval))
            await saved.sweep()
            MemoryTrim.now()
        }
    }

    /// The framework's contract as JSON, which each app's own is built on.
    private static var frameworkContract: JSONValue {
        JSONValue(json: bundled("openapi", "json")) ?? .object([:])
    }

    /// A document of the framework's resources (`Resources/`); a build without it is broken.
    private static func bundled(_ name: String, _ type: String) -> Data {
        guard let data = ModuleResource.data(name, type) else {
            preconditionFailure("The framework's resource \(name).\(type) is missing from the build.")
        }
        return data
    }
}
