import Foundation
import MVVMHTTP

/// `GET /`, `GET /health`, `GET /openapi.yaml`, `GET /openapi.json`, `GET /scenes` and `GET /metrics`.
extension API {
    func addSystemRoutes(to router: inout Router) {
        router.add("GET", "/") { [self] _ in .response(.json(facts.indexDocument)) }
        router.add("GET", "/health") { [self] _ in health() }
        router.add("GET", "/openapi.yaml") { [self] _ in
            .response(HTTPResponse(status: 200, headers: [("Content-Type", "application/yaml")], body: facts.openAPIDocument))
        }
        router.add("GET", "/openapi.json") { [self] _ in .response(.json(facts.appContractDocument)) }
        router.add("GET", "/scenes") { [self] _ in .response(.json(facts.catalogueDocument)) }
        router.add("GET", "/metrics") { [self] _ in
            .response(HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")], body: Data(prometheusText().utf8)))
        }
    }

    /// `GET /health`: the server's name, version, uptime and sessions, and whether the state
    /// store answers now (asked as a piece of the application's work).
    func health() -> Reply {
        let uptime = ContinuousClock.now - facts.started
        let health = Health(
            status: "ok", version: facts.version, instance: facts.instanceName,
            uptimeSeconds: Double(uptime.components.seconds), sessions: sessions.count, stateStore: nil)
        guard let store = saved.store else { return .response(.json(encoding: health)) }
        return .task {
            var answer = health
            answer.stateStore = .init(kind: store.kind, reachable: await store.isReachable())
            return .response(.json(encoding: answer))
        }
    }

    /// The metrics in the Prometheus text exposition format.
    func prometheusText() -> String {
        metrics.prometheusText(sessions: sessions.count, parked: sessions.parkedCount, streams: facts.openStreamCount)
    }

    /// `GET /`: where to start.
    struct IndexDocument: Encodable {
        struct Links: Encodable {
            let scenes = "/scenes"
            let openapi = "/openapi.yaml"
            let contract = "/openapi.json"
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
            description:
                "Creates a session: a context with its own view models, showing the app's root scene. The answer's navigation gives each shown scene's path; GET it for the scene's state, POST its input and actions, and long-poll with ?since=VERSION&wait=SECONDS."
        )
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
}
