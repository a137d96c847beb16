import CoreMetrics
import Dispatch
import MVVMCore
import MVVMSupport
import Synchronization

import class Prometheus.PrometheusCollectorRegistry
import struct Prometheus.PrometheusMetricsFactory

/// The application's metrics, kept through swift-metrics with a Prometheus factory over a
/// registry of the application's own (nothing is bootstrapped process-wide, so two applications
/// in one process, as in the tests, count apart), and served at `GET /metrics` in Prometheus text.
///
/// Requests are counted and timed per route pattern and status, each pair getting its counter
/// and timer when the first batch of answers holding it is added (see ``RequestTally``).
final class Metrics: Sendable {
    let createdSessions: CoreMetrics.Counter
    let deletedSessions: CoreMetrics.Counter
    let evictedSessions: CoreMetrics.Counter
    /// Sessions taken over from the state store: restored after a restart, or from another
    /// server of a cluster.
    let adoptedSessions: CoreMetrics.Counter
    /// Sessions let go because another server took them over.
    let handedOverSessions: CoreMetrics.Counter
    let expiredSessions: CoreMetrics.Counter
    let expiredLongPolls: CoreMetrics.Counter
    /// Synchronous context calls run on the polling thread that read their request (counted
    /// through ``countContextCallOnPollingThread(thread:)``).
    private let contextCallsOnPollingThread: CoreMetrics.Counter
    /// Synchronous context calls that waited: their context was busy (they ran after the call
    /// before them, on the thread that ended it), or the caller was not a polling thread (they
    /// were handed to the draining tasks).
    let contextCallsQueued: CoreMetrics.Counter
    private let liveSessions: CoreMetrics.Gauge
    private let parkedRequests: CoreMetrics.Gauge
    private let openStreams: CoreMetrics.Gauge
    private let cachedViewModels: CoreMetrics.Gauge
    private let liveContexts: CoreMetrics.Gauge
    private let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    /// The counters and timers of each route of the router serving (a ``RouteTable``), set once
    /// when it starts serving and read without a lock.
    private let routes = AttachmentSlot()
    /// The counters and timers of requests no route took.
    private let unmatched = RouteSlot(method: "any", pattern: "unmatched")
    /// The polling threads' tallies, by thread number modulo their count (a power of two, so
    /// that ``tally(of:)`` takes the modulo with a mask).
    private let tallies = (0..<8).map { _ in RequestTally() }
    /// Adds the tallies' full batches to the shared counters and timers, one batch after the
    /// other, off the polling threads.
    private let recorder = DispatchQueue(label: "mvvm.metrics.recorder")

    /// The name of the requests' timer, and its buckets: from a quarter of a millisecond (a
    /// read of a published document) to a minute (the longest long-poll). Each answer is
    /// compared with every bucket, so there are few.
    private static let requestDuration = "mvvm_request_duration_seconds"
    private static let requestDurationBuckets: [Duration] = [
        .microseconds(250), .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100),
        .milliseconds(500), .seconds(1), .seconds(5), .seconds(30), .seconds(60),
    ]

    /// The metrics of one status of one route.
    private final class StatusMetrics: Sendable {
        let status: Int
        let count: CoreMetrics.Counter
        let duration: CoreMetrics.Timer

        init(status: Int, count: CoreMetrics.Counter, duration: CoreMetrics.Timer) {
            self.status = status
            self.count = count
            self.duration = duration
        }
    }

    /// The slots of a router's routes, by index.
    private final class RouteTable: Sendable {
        let slots: [RouteSlot]

        init(_ routes: [Router.Route]) {
            slots = routes.map { RouteSlot(method: $0.method, pattern: $0.pattern.description) }
        }
    }

    /// One route's metrics, a status's made when first answered. The first status a route
    /// answers (nearly always the one it answers most) is read without a lock; the others, a
    /// handful, by a short scan under one.
    private final class RouteSlot: Sendable {
        let method: String
        let pattern: String
        let first = AttachmentSlot()
        let statuses = Mutex<[StatusMetrics]>([])
        /// How many statuses were added; read after the lock, so that a thread that found a
        /// status another thread made sees it made (ThreadSanitizer does not see that
        /// `Mutex`, whose futex code is not instrumented, orders them: RELIABILITY.md).
        let added = Atomic<Int>(0)

        init(method: String, pattern: String) {
            self.method = method
            self.pattern = pattern
        }
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
        openStreams = CoreMetrics.Gauge(label: "mvvm_open_streams", factory: factory)
        cachedViewModels = CoreMetrics.Gauge(label: "mvvm_view_models_cached", factory: factory)
        liveContexts = CoreMetrics.Gauge(label: "mvvm_contexts_alive", factory: factory)
        createdSessions = CoreMetrics.Counter(label: "mvvm_sessions_created_total", factory: factory)
        deletedSessions = CoreMetrics.Counter(label: "mvvm_sessions_deleted_total", factory: factory)
        evictedSessions = CoreMetrics.Counter(label: "mvvm_sessions_evicted_total", factory: factory)
        adoptedSessions = CoreMetrics.Counter(label: "mvvm_sessions_adopted_total", factory: factory)
        handedOverSessions = CoreMetrics.Counter(label: "mvvm_sessions_handed_over_total", factory: factory)
        expiredSessions = CoreMetrics.Counter(label: "mvvm_sessions_expired_total", factory: factory)
        expiredLongPolls = CoreMetrics.Counter(label: "mvvm_long_polls_expired_total", factory: factory)
        contextCallsOnPollingThread = CoreMetrics.Counter(label: "mvvm_context_calls_total", dimensions: [("thread", "polling")], factory: factory)
        contextCallsQueued = CoreMetrics.Counter(label: "mvvm_context_calls_total", dimensions: [("thread", "queued")], factory: factory)
    }

    /// Names the routes of the router that serves: requests are counted under their patterns.
    /// The first naming holds (an application's router has the same routes every time it runs).
    func name(routes: [Router.Route]) {
        _ = self.routes.value { RouteTable(routes) }
    }

    /// Counts and times one answer: `route` is the index of the route that handled it (-1 when
    /// none did), `nanoseconds` the time from its arrival to its answer, `thread` the number of
    /// the polling thread calling (``PollingThread/number``). Called for every request; the
    /// answer reaches the exported counters and timers with its thread's batch, or at the next
    /// export.
    func record(route: Int, status: Int, nanoseconds: UInt64, thread: Int) {
        tally(of: thread).count(RequestTally.Answer(route: route, status: status, nanoseconds: nanoseconds)) { add($0) }
    }

    /// Counts a synchronous context call run on the polling thread numbered `thread`.
    func countContextCallOnPollingThread(thread: Int) {
        tally(of: thread).countContextCall()
    }

    private func tally(of thread: Int) -> RequestTally {
        tallies[thread & (tallies.count - 1)]
    }

    /// Hands a batch to the recorder, which adds it to the shared counters and timers: the
    /// polling thread that filled it goes back to answering at once.
    private func add(_ batch: borrowing RequestTally.Batch) {
        let answers = batch.answers
        let contextCalls = batch.contextCallsOnPollingThread
        guard !answers.isEmpty || contextCalls > 0 else { return }
        recorder.async { [self] in record(answers, contextCalls: contextCalls) }
    }

    /// Adds answers and context calls to the shared counters and timers (a run of answers of
    /// one route and status, the common case, is counted at once). Runs on the recorder.
    private func record(_ answers: [RequestTally.Answer], contextCalls: Int) {
        if contextCalls > 0 {
            contextCallsOnPollingThread.increment(by: Int64(contextCalls))
        }
        let slots = routes.value(orMake: { nil as RouteTable? })?.slots ?? []
        var index = 0
        while index < answers.count {
            let first = answers[index]
            let slot = slots.indices.contains(first.route) ? slots[first.route] : unmatched
            let metrics = statusMetrics(first.status, of: slot)
            var end = index
            while end < answers.count, answers[end].route == first.route, answers[end].status == first.status {
                metrics.duration.recordNanoseconds(Int64(clamping: answers[end].nanoseconds))
                end += 1
            }
            metrics.count.increment(by: Int64(end - index))
            index = end
        }
    }

    private func statusMetrics(_ status: Int, of slot: RouteSlot) -> StatusMetrics {
        if let first = slot.first.value(orMake: { nil as StatusMetrics? }), first.status == status { return first }
        let metrics = slot.statuses.withLock { statuses in
            if let known = statuses.first(where: { $0.status == status }) { return known }
            let dimensions = [("method", slot.method), ("route", slot.pattern), ("status", String(status))]
            let made = StatusMetrics(
                status: status,
                count: CoreMetrics.Counter(label: "mvvm_requests_total", dimensions: dimensions, factory: factory),
                duration: CoreMetrics.Timer(label: Self.requestDuration, dimensions: dimensions, factory: factory))
            statuses.append(made)
            slot.added.add(1, ordering: .releasing)
            return made
        }
        _ = slot.added.load(ordering: .acquiring)
        // The first status made becomes the one read without the lock.
        _ = slot.first.value { metrics }
        return metrics
    }

    /// The metrics in the Prometheus text exposition format, the gauges read now.
    func prometheusText(sessions: Int, parked: Int, streams: Int) -> String {
        for tally in tallies { tally.flush { add($0) } }
        // Every batch handed over so far, these included, is added before the registry is read.
        recorder.sync {}
        liveSessions.record(sessions)
        parkedRequests.record(parked)
        openStreams.record(streams)
        cachedViewModels.record(ViewModelCensus.live)
        liveContexts.record(ViewModelCensus.liveContexts)
        return registry.emitToString()
    }
}
