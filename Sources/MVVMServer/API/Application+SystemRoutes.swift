import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON

/// `GET /`, `GET /health`, `GET /openapi.yaml`, `GET /scenes` and `GET /metrics`.
extension Application {
    func addSystemRoutes(to router: inout Router) {
        router.add("GET", "/") { [self] _, responder in
            responder.answer(.json(indexDocument))
        }
        router.add("GET", "/health") { [self] _, responder in
            let uptime = ContinuousClock.now - started
            responder.answer(.json(encoding: Health(status: "ok", version: configuration.version, uptimeSeconds: Double(uptime.components.seconds), sessions: sessions.count)))
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
        let status: String
        let version: String
        let uptimeSeconds: Double
        let sessions: Int
    }

    /// The metrics in the Prometheus text exposition format.
    func prometheusText() -> String {
        var lines: [String] = []
        func gauge(_ name: String, _ help: String, _ value: Int, type: String = "gauge") {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            lines.append("\(name) \(value)")
        }
        gauge("mvvm_sessions_live", "Sessions alive now.", sessions.count)
        gauge("mvvm_parked_requests", "Long-polls parked now.", parkedTotal.load(ordering: .relaxed))
        gauge("mvvm_view_models_cached", "View models in every session's store.", ViewModelCensus.live)
        gauge("mvvm_contexts_alive", "Contexts (sessions' view model owners) not yet released.", ViewModelCensus.liveContexts)
        gauge("mvvm_sessions_created_total", "Sessions created.", metrics.createdSessions.load(ordering: .relaxed), type: "counter")
        gauge("mvvm_sessions_deleted_total", "Sessions deleted by clients.", metrics.deletedSessions.load(ordering: .relaxed), type: "counter")
        gauge("mvvm_sessions_evicted_total", "Sessions evicted at the session cap.", metrics.evictedSessions.load(ordering: .relaxed), type: "counter")
        gauge("mvvm_sessions_expired_total", "Sessions expired after idling.", metrics.expiredSessions.load(ordering: .relaxed), type: "counter")
        gauge("mvvm_long_polls_expired_total", "Long-polls answered by their deadline.", metrics.expiredLongPolls.load(ordering: .relaxed), type: "counter")
        lines.append("# HELP mvvm_context_calls_total Synchronous calls on sessions' contexts, by the thread that ran them: the polling thread that read the request, or a pool thread.")
        lines.append("# TYPE mvvm_context_calls_total counter")
        lines.append("mvvm_context_calls_total{thread=\"polling\"} \(metrics.contextCallsOnPollingThread.load(ordering: .relaxed))")
        lines.append("mvvm_context_calls_total{thread=\"pool\"} \(metrics.contextCallsHandedOff.load(ordering: .relaxed))")
        lines.append("# HELP mvvm_requests_total Requests answered, by method, route and status.")
        lines.append("# TYPE mvvm_requests_total counter")
        for count in metrics.requestCounts(routes: router.routes) {
            lines.append("mvvm_requests_total{method=\"\(count.method)\",route=\"\(Self.escapeLabel(count.route))\",status=\"\(count.status)\"} \(count.count)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func escapeLabel(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }
}
