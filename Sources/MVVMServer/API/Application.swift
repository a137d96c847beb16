import Foundation
import Logging
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMSupport
import Synchronization

/// An MVVM app served over HTTP: each session is a context with its own store of view models,
/// routes map to the scenes of a ``SceneCatalogue``, state is served as JSON with long-poll.
///
/// ```swift
/// let app = Application(configuration: .init(), catalogue: catalogue, dependencies: services, logger: logger)
/// try app.start()
/// print("listening on port \(app.port)")
/// ```
public final class Application: Sendable {
    /// The settings.
    public let configuration: ApplicationConfiguration
    /// The scenes.
    public let catalogue: SceneCatalogue
    /// The services given to every factory.
    public let dependencies: DependencyValues
    let logger: Logger
    let sessions = SessionTable()
    let parkedTotal = Atomic<Int>(0)
    let metrics = Metrics()
    /// Runs the synchronous context calls of requests (``onContext(_:_:_:_:)``).
    let contextCalls = WorkDrainer(maxDrainers: max(2, ProcessInfo.processInfo.activeProcessorCount))
    let started = ContinuousClock.now
    let openAPIDocument: Data
    let catalogueDocument: Data
    private let server = Mutex<HTTPServer?>(nil)
    private let sweeper = Mutex<Task<Void, Never>?>(nil)

    /// Makes the application; nothing listens until ``start()``.
    public init(configuration: ApplicationConfiguration, catalogue: SceneCatalogue, dependencies: DependencyValues = DependencyValues(), logger: Logger) {
        self.configuration = configuration
        self.catalogue = catalogue
        self.dependencies = dependencies
        self.logger = logger
        openAPIDocument = Self.loadOpenAPI()
        catalogueDocument = (try? JSONCoding.encode(CatalogueDocument(catalogue))) ?? Data()
    }

    /// The routes of the API, in the order they are matched.
    package var router: Router {
        var router = Router()
        addSystemRoutes(to: &router)
        addSessionRoutes(to: &router)
        addSceneRoutes(to: &router)
        addNavigationRoutes(to: &router)
        return router
    }

    /// Starts listening.
    /// - Throws: ``HTTPServerError`` when the address cannot be bound.
    public func start() throws {
        var http = configuration.http
        http.defaultParkDeadline = .seconds(configuration.maxWaitSeconds + 60)
        http.pathForLogging = Self.redactSessionIDs
        let metrics = self.metrics
        http.onAnswer = { route, status in metrics.record(route: route, status: status) }
        let router = self.router
        let server = HTTPServer(configuration: http, logger: logger) { request, responder, thread in
            router.handle(request, responder: responder, thread: thread)
        }
        try server.start()
        self.server.withLock { $0 = server }
        startSweeper()
    }

    /// Requests whose connection is parked now (long-polls, and other requests waiting for
    /// their answer), as the HTTP runtime counts them.
    public var parkedConnectionCount: Int {
        server.withLock { $0?.parkedRequestCount ?? 0 }
    }

    /// The port the server listens on (the real one after starting on port 0).
    public var port: Int {
        server.withLock { $0?.port ?? 0 }
    }

    /// Stops: answers every parked request, stops the HTTP server, then ends every session.
    public func stop() async {
        sweeper.withLock { $0?.cancel() }
        let running = server.withLock { server in
            defer { server = nil }
            return server
        }
        running?.stop()
        for session in sessions.removeAll() {
            await session.end()
        }
    }

    /// Milliseconds on the monotonic clock.
    var now: UInt64 {
        MonotonicClock.milliseconds
    }

    private func startSweeper() {
        let interval = max(0.05, min(configuration.sessionIdleSeconds / 4, 5))
        let idle = UInt64(configuration.sessionIdleSeconds * 1000)
        let task = Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(interval))
                guard let self else { return }
                let expired = self.sessions.removeExpired(idleMilliseconds: idle, now: self.now)
                self.metrics.expiredSessions.add(expired.count, ordering: .relaxed)
                for session in expired {
                    await session.end()
                }
                MemoryTrim.now()
            }
        }
        sweeper.withLock { $0 = task }
    }

    /// The contract. SwiftPM copies `Resources/openapi.yaml` into the bundle as the relative
    /// symlink it is (to the package's `openapi.yaml`), which dangles there; the source tree's
    /// resource is read when the bundled one cannot be.
    /// The contract, shipped as the module's resource (the root `openapi.yaml` links to it).
    private static func loadOpenAPI() -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
              let data = try? Data(contentsOf: url) else {
            return Data("openapi: 3.1.0\n".utf8)
        }
        return data
    }

    /// Shortens session ids in logged paths: they are secrets.
    static func redactSessionIDs(_ path: String) -> String {
        guard path.hasPrefix("/sessions/") else { return path }
        let rest = path.dropFirst("/sessions/".count)
        let id = rest.prefix { $0 != "/" }
        return "/sessions/" + SessionID.redacted(String(id)) + rest.dropFirst(id.count)
    }
}

/// The catalogue as `GET /scenes` serves it.
struct CatalogueDocument: Encodable {
    struct Entry: Encodable {
        let name: String
        let keyPattern: String
        let input: [String]
        let actions: [String]
        let slots: [String]
        let snapshot: Bool
    }

    let root: String
    let scenes: [Entry]

    init(_ catalogue: SceneCatalogue) {
        root = catalogue.rootKey
        scenes = catalogue.scenes.map {
            Entry(name: $0.name, keyPattern: $0.keyPattern.description, input: $0.inputMembers, actions: $0.actions, slots: $0.slots, snapshot: $0.hasSnapshot)
        }
    }
}
