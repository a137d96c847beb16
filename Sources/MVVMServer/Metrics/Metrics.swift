import CoreMetrics
import MVVMCore
import struct Prometheus.PrometheusMetricsFactory
import class Prometheus.PrometheusCollectorRegistry
import Synchronization

/// The application's metrics, kept through swift-metrics with a Prometheus factory over a
/// registry of the application's own (nothing is bootstrapped process-wide, so two applications
/// in one process, as in the tests, count apart), and served at `GET /metrics` in Prometheus text.
///
/// Requests are counted and timed per route pattern and status, each pair getting its counter
/// and timer the first time it is answered.
final class Metrics: Sendable {
    let createdSessions: CoreMetrics.Counter
    let deletedSessions: CoreMetrics.Counter
    let evictedSessions: CoreMetrics.Counter
    let expiredSessions: CoreMetrics.Counter
    let expiredLongPolls: CoreMetrics.Counter
    /// Synchronous context calls run on the polling thread that read their request.
    let contextCallsOnPollingThread: CoreMetrics.Counter
    /// Synchronous context calls handed to the draining tasks (their context was busy, or the
    /// caller was not a polling thread).
    let contextCallsHandedOff: CoreMetrics.Counter
    private let liveSessions: CoreMetrics.Gauge
    private let parkedRequests: CoreMetrics.Gauge
    private let cachedViewModels: CoreMetrics.Gauge
    private let liveContexts: CoreMetrics.Gauge
    private let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    /// The method and pattern of each route, by its index in the router serving.
    private let routes = Mutex<[(method: String, pattern: String)]>([])
    /// The counter and timer of each route and status answered so far.
    private let answers = Mutex<[AnswerKey: RouteMetrics]>([:])

    /// The name of the requests' timer, and its buckets: from a tenth of a millisecond (a read
    /// of a published document) to a minute (the longest long-poll).
    private static let requestDuration = "mvvm_request_duration_seconds"
    private static let requestDurationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2500),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        .seconds(30), .seconds(60),
    ]

    private struct AnswerKey: Hashable {
        let route: Int
        let status: Int
    }

    private struct RouteMetrics: Sendable {
        let count: CoreMetrics.Counter
        let duration: CoreMetrics.Timer
    }

    /// Empty metrics.
    init() {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[Self.requestDuration] = Self.requestDurationBuckets
        self.registry = registry
        self.factory = factory
        liveSessions = CoreMetrics.Gauge(label: "mvvm_sessions_live", factory: factory)
        parkedRequests = CoreMetrics.Gauge(label: "mvvm_parked_requests", factory: factory)
        cachedViewModels = CoreMetrics.Gauge(label: "mvvm_view_models_cached", factory: factory)
        liveContexts = CoreMetrics.Gauge(label: "mvvm_contexts_alive", factory: factory)
        createdSessions = CoreMetrics.Counter(label: "mvvm_sessions_created_total", factory: factory)
        deletedSessions = CoreMetrics.Counter(label: "mvvm_sessions_deleted_total", factory: factory)
        evictedSessions = CoreMetrics.Counter(label: "mvvm_sessions_evicted_total", factory: factory)
        expiredSessions = CoreMetrics.Counter(label: "mvvm_sessions_expired_total", factory: factory)
        expiredLongPolls = CoreMetrics.Counter(label: "mvvm_long_polls_expired_total", factory: factory)
        contextCallsOnPollingThread = CoreMetrics.Counter(label: "mvvm_context_calls_total", dimensions: [("thread", "polling")], factory: factory)
        contextCallsHandedOff = CoreMetrics.Counter(label: "mvvm_context_calls_total", dimensions: [("thread", "pool")], factory: factory)
    }

    /// Names the routes of the router that serves: requests are counted under their patterns.
    func name(routes: [Router.Route]) {
        self.routes.withLock { $0 = routes.map { ($0.method, $0.pattern.description) } }
    }

    /// Counts and times one answer: `route` is the index of the route that handled it (-1 when
    /// none did), `nanoseconds` the time from its arrival to its answer. Called on a polling
    /// thread for every request.
    func record(route: Int, status: Int, nanoseconds: UInt64) {
        let metrics = routeMetrics(AnswerKey(route: route, status: status))
        metrics.count.increment()
        metrics.duration.recordNanoseconds(Int64(clamping: nanoseconds))
    }

    private func routeMetrics(_ key: AnswerKey) -> RouteMetrics {
        answers.withLock { answers in
            if let known = answers[key] { return known }
            let routes = self.routes.withLock { $0 }
            let route = routes.indices.contains(key.route) ? routes[key.route] : (method: "any", pattern: "unmatched")
            let dimensions = [("method", route.method), ("route", route.pattern), ("status", String(key.status))]
            let made = RouteMetrics(
                count: CoreMetrics.Counter(label: "mvvm_requests_total", dimensions: dimensions, factory: factory),
                duration: CoreMetrics.Timer(label: Self.requestDuration, dimensions: dimensions, factory: factory))
            answers[key] = made
            return made
        }
    }

    /// The metrics in the Prometheus text exposition format, the gauges read now.
    func prometheusText(sessions: Int, parked: Int) -> String {
        liveSessions.record(sessions)
        parkedRequests.record(parked)
        cachedViewModels.record(ViewModelCensus.live)
        liveContexts.record(ViewModelCensus.liveContexts)
        return registry.emitToString()
    }
}
