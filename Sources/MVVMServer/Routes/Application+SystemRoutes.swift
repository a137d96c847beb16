import Foundation
import MVVMHTTP

/// `GET /`, `GET /health`, `GET /openapi.yaml`, `GET /scenes` and `GET /metrics`.
extension Application {
    func addSystemRoutes(to router: inout Router) {
        router.add("GET", "/") { [self] _, responder in
            responder.answer(.json(indexDocument))
        }
        router.add("GET", "/health") { [self] _, responder in
            let uptime = ContinuousClock.now - started
            let health = Health(status: "ok", version: configuration.version, instance: instanceName.withLock { $0 },
                                uptimeSeconds: Double(uptime.components.seconds), sessions: sessions.count, stateStore: nil)
            guard let store = savedSessions else {
                responder.answer(.json(encoding: health))
                return
            }
            let started = work.start {
                var answer = health
                answer.stateStore = .init(kind: store.kind, reachable: await store.isReachable())
                responder.answer(.json(encoding: answer))
            }
            if !started { responder.answer(HTTPError.unavailable("The server is stopping.")) }
        }
        router.add("GET", "/openapi.yaml") { [self] _, responder in
            responder.answer(HTTPResponse(status: 200, headers: [("Content-Type", "application/yaml")], body: openAPIDocument))
        }
        router.add("GET", "/scenes") { [self] _, responder in
            responder.answer(.json(catalogueDocument))
        }
        router.add("GET", "/metrics") { [self] _, responder in
            responder.answer(HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")], body: Data(prometheusText().utf8)))
        }
    }

    /// `GET /`: where to start.
    struct IndexDocument: Encodable {
        struct Links: Encodable {
            let scenes = "/scenes"
            let openapi = "/openapi.yaml"
            let health = "/health"
            let metrics = "/metrics"
        }

        struct Step: Encodable {
            let method: String
            let href: String
            let description: String
        }

        let name = "MVVMServer"
        let version: String
        let links = Links()
        let createSession = Step(
            method: "POST", href: "/sessions",
            description: "Creates a session: a context with its own view models, showing the app's root scene. The answer's navigation gives each shown scene's path; GET it for the scene's state, POST its input and actions, and long-poll with ?since=VERSION&wait=SECONDS.")
    }

    private struct Health: Encodable {
        /// The state store in use, and whether it answers now.
        struct StateStoreHealth: Encodable {
            let kind: String
            let reachable: Bool
        }

        let status: String
        let version: String
        let instance: String
        let uptimeSeconds: Double
        let sessions: Int
        var stateStore: StateStoreHealth?
    }

    /// The metrics in the Prometheus text exposition format.
    func prometheusText() -> String {
        metrics.prometheusText(sessions: sessions.count, parked: parkedTotal.load(ordering: .relaxed), streams: openStreamCount)
    }
}
