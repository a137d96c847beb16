import Foundation
import Logging
import MVVMSupport
import Synchronization

/// The Swift side of the daemon: the handler, the parked requests and the request log.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let logger: Logger
    let handler: RequestHandler
    /// Requests whose connection was suspended (parked) and that have not completed yet: their
    /// answer is not sent, or their connection not closed, until then. `stop()` waits for them.
    let unfinishedParks = Atomic<Int>(0)
    /// Parked requests answered by their deadline.
    let expiredParks = Atomic<Int>(0)
    /// Sweeps of the parked requests' deadlines made so far.
    let deadlineSweeps = Atomic<Int>(0)
    /// Connections open now.
    let openConnections = Atomic<Int>(0)
    /// The streamed responses open.
    let streams = StreamRegistry()
    /// Cuts off clients too slow to send a request.
    let reaper: SlowClientReaper
    /// Whether each answered request gets a log line (the logger's level is debug or finer).
    let logsRequests: Bool
    /// The names of the header fields handlers read, lower-cased (``HTTPServerConfiguration/headerFieldsRead``).
    let headerFieldsRead: [[UInt8]]?
    /// What sends a `GET` to its handler despite a kept answer (``HTTPServerConfiguration/reuseExclusions``).
    let reuseCheck: ReuseCheck
    /// Which requests are answered, by `Host` and `Origin`; the server does not start with a refusal.
    let clients: Result<LocalClientPolicy, LocalClientPolicy.Refusal>
    /// Wakes the running deadline sweeper when a request is parked while none was: with nothing
    /// parked it waits for this instead of waking every 50 ms for nothing (each wake-up takes a
    /// core from the polling threads for a moment, which under load shows in their latency).
    private let firstParked = Mutex<AsyncStream<Void>.Continuation?>(nil)
    private let parked = Mutex<(stopping: Bool, responders: [ObjectIdentifier: Responder])>((false, [:]))

    /// Header fields sent with every answer (see ``HTTPServer/addResponseHeader(_:_:)``).
    let fixedHeaders = FixedResponseHeaders()

    init(configuration: HTTPServerConfiguration, logger: Logger, handler: @escaping RequestHandler) {
        self.configuration = configuration
        self.logger = logger
        self.handler = handler
        logsRequests = logger.logLevel <= .debug
        headerFieldsRead = configuration.headerFieldsRead.map { names in names.map { Array($0.lowercased().utf8) } }
        reuseCheck = ReuseCheck(configuration.reuseExclusions)
        clients = Result { () throws(LocalClientPolicy.Refusal) in
            try LocalClientPolicy(allowedHosts: configuration.allowedHosts, allowedOrigins: configuration.allowedOrigins)
        }
        reaper = SlowClientReaper(timeoutMilliseconds: UInt64(max(1, configuration.connectionTimeoutSeconds)) * 1000)
    }

    /// Answers parked requests whose deadline passed, every 50 ms while some are parked, until
    /// the calling task is cancelled.
    func sweepDeadlines() async {
        let (wakeUps, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        firstParked.withLock { $0 = continuation }
        defer { firstParked.withLock { $0 = nil } }
        // Requests parked before the sweeper ran are swept too (a park from now on signals it).
        if parkedCount > 0 { continuation.yield() }
        // A signal sent while the sweeper is still sweeping stays buffered: a park that comes as
        // it finds the registry empty is not missed.
        for await _ in wakeUps {
            repeat {
                try? await Task.sleep(for: .milliseconds(50))
                expireParked()
            } while !Task.isCancelled && parkedCount > 0
        }
    }

    func connectionOpened(_ record: ConnectionRecord) {
        openConnections.add(1, ordering: .relaxed)
        reaper.opened(record)
    }

    func connectionClosed(_ record: ConnectionRecord) {
        openConnections.subtract(1, ordering: .relaxed)
        reaper.closed(record)
    }

    var parkedCount: Int {
        parked.withLock { $0.responders.count }
    }

    /// Makes the responder for a new request and calls the handler.
    func dispatch(_ request: consuming HTTPRequest, on thread: PollingThread) -> Responder {
        let responder = Responder()
        handler(request, responder, thread)
        return responder
    }

    /// Parks a request that its handler did not answer yet: remembers it for `stop()` and arms
    /// its deadline. When the server is stopping, the request is answered 503 instead.
    func park(_ responder: Responder, suspend: () -> Void, resume: @escaping @Sendable () -> Void) -> HTTPResponse? {
        let (stopping, isFirst) = parked.withLock { state -> (Bool, Bool) in
            if state.stopping { return (true, false) }
            let isFirst = state.responders.isEmpty
            state.responders[ObjectIdentifier(responder)] = responder
            return (false, isFirst)
        }
        if isFirst { firstParked.withLock { _ = $0?.yield() } }
        if stopping {
            responder.answer(HTTPError.unavailable("The server is stopping."))
        }
        guard
            let response = responder.takeOrPark(
                suspend: {
                    unfinishedParks.add(1, ordering: .relaxed)
                    suspend()
                }, resume: resume)
        else {
            responder.setDefaultDeadline(after: configuration.defaultParkDeadline)
            return nil
        }
        forget(responder)
        return response
    }

    /// Called when a parked request's connection comes back: takes its answer.
    func resumed(_ responder: Responder) -> HTTPResponse {
        forget(responder)
        return responder.take() ?? HTTPError.internal("A parked request was resumed without an answer.").response
    }

    /// Called when a request that was parked has completed: its answer was sent, or its
    /// connection closed.
    func parkedRequestCompleted() {
        unfinishedParks.subtract(1, ordering: .releasing)
    }

    /// Called when the connection of a request that was waiting for its answer, not parked yet,
    /// closed (its client went away): does at once what the request's deadline would do later
    /// (a long-poll leaves its board and gives back its place). Such a request is in no registry
    /// that a deadline is swept from.
    func abandoned(_ responder: Responder) {
        responder.answer(responder.deadlineAnswer()())
    }

    private func forget(_ responder: Responder) {
        _ = parked.withLock { $0.responders.removeValue(forKey: ObjectIdentifier(responder)) }
    }

    /// Answers the parked requests whose deadline has passed. Called by the sweeper every 50 ms
    /// while requests are parked: parked requests never time out in libmicrohttpd, and a client
    /// that went away is not noticed while its request is parked, so this is what releases
    /// them. Only parked requests are looked at, so nothing is left behind by the ones answered
    /// in time.
    func expireParked() {
        deadlineSweeps.add(1, ordering: .relaxed)
        let now = ContinuousClock.now
        let expired: [(Responder, @Sendable () -> HTTPResponse)] = parked.withLock { state in
            state.responders.values.compactMap { responder in responder.expiredAnswer(at: now).map { (responder, $0) } }
        }
        for (responder, answer) in expired {
            // Counted before answering, so that whoever sees the answer also sees the count.
            expiredParks.add(1, ordering: .relaxed)
            if !responder.answer(answer()) {
                expiredParks.subtract(1, ordering: .relaxed)
            }
        }
    }

    /// Refuses new parks, answers every parked request with 503 and ends every stream (after
    /// what it holds; a stream opened from now on ends at once).
    func answerAllParked() {
        let responders = parked.withLock { state in
            state.stopping = true
            return Array(state.responders.values)
        }
        for responder in responders {
            responder.answer(HTTPError.unavailable("The server is stopping."))
        }
        streams.endAll()
    }

    /// Accepts parks and streams again (after a stop, so that the server can be started again).
    func reopen() {
        parked.withLock { $0.stopping = false }
        streams.reopen()
    }

    /// Reports an answered request to the configuration's observer and, at the debug level,
    /// writes its log line (the method and path are read only for that line). `arrived` is when
    /// the request arrived, in ``MonotonicClock/nanoseconds``.
    func answered(method: @autoclosure () -> String, path: @autoclosure () -> String, route: Int, status: Int, arrived: UInt64) {
        let nanoseconds = MonotonicClock.nanoseconds &- arrived
        configuration.onAnswer?(route, status, nanoseconds, LeftWork.currentThreadNumber)
        guard logsRequests else { return }
        var metadata = configuration.requestLogMetadata(route, path())
        metadata["method"] = .string(method())
        metadata["status"] = .stringConvertible(status)
        metadata["duration_ms"] = .string(String(format: "%.3f", Double(nanoseconds) / 1e6))
        logger.debug("answered", metadata: metadata)
    }
}
