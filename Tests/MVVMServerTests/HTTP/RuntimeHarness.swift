import Foundation
import Logging
import MVVMSupport
import ServerTestSupport
import Synchronization
import TestSupport

@testable import MVVMCore
@testable import MVVMHTTP
@testable import MVVMJSON
@testable import MVVMServer

/// An HTTP server with test-only routes that exercise the runtime itself:
/// `/echo/{rest...}` answers what it received, `/park` parks until released from another
/// thread, `/soon` is answered from another thread right after its handler returns,
/// `/deadline` parks until its own short deadline; `/headers` answers the header fields it was
/// handed; `/pass` is answered by work left to the
/// polling thread, `/left` answers at once and leaves work to the polling thread (counted in
/// ``leftWorkDone``); `/prepared` answers a response prepared once (`?extra=1`: a copy of it
/// with one more header); `/reusable/{name}` answers a prepared response marked reusable while
/// ``Reusable/generation`` is the one it was made in, and `/reusable-unshared` marks an answer
/// that is not prepared (both count their calls in ``reusable``).
final class RuntimeHarness: Sendable {
    let server: HTTPServer
    /// The server's timers (deadlines, slow clients), run until ``stop()``.
    private let timers: Task<Void, Never>
    let parked = ParkedList()
    let leftWorkDone = Tally()
    let reusable = Reusable()

    /// What the `/reusable` routes count, and the generation their answers hold for.
    final class Reusable: Sendable {
        /// Calls of the routes' handlers.
        let calls = Atomic<Int>(0)
        /// Calls of the check that says whether a kept answer still holds.
        let checks = Atomic<Int>(0)
        /// Answers hold while this is the generation they were made in.
        let generation = Atomic<Int>(0)
        private let slots = Mutex<[String: AttachmentSlot]>([:])

        /// One slot per generation and name: one prepared response each.
        func slot(_ key: String) -> AttachmentSlot {
            slots.withLock { slots in
                if let slot = slots[key] { return slot }
                let slot = AttachmentSlot()
                slots[key] = slot
                return slot
            }
        }
    }

    /// The responders of `/park` requests, shared with the route's closure.
    final class ParkedList: Sendable {
        let responders = Mutex<[Responder]>([])
    }

    /// Makes and starts the server; `logger` is a quiet one (warnings only) unless given.
    init(logger: Logger? = nil, configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configure(&configuration)
        var router = RawRoutes()
        let parked = self.parked
        router.add("POST", "/echo/{first}/{rest...}") { request, parameters, responder, thread in
            let echo: [String: String] = [
                "first": parameters["first", default: ""], "rest": parameters["rest", default: ""], "bytes": String(request.body.count),
                "query": request.query["q"] ?? "",
            ]
            responder.answer(.json(encoding: echo))
        }
        router.add("GET", "/echo/{first}/{rest...}") { request, parameters, responder, thread in
            responder.answer(
                .json(encoding: [
                    "first": parameters["first", default: ""], "rest": parameters["rest", default: ""], "query": request.query["q"] ?? "",
                ]))
        }
        router.add("GET", "/headers") { request, parameters, responder, thread in
            responder.answer(
                .json(encoding: Dictionary(request.fields.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })))
        }
        router.add("GET", "/park") { _, _, responder, _ in
            parked.responders.withLock { $0.append(responder) }
        }
        router.add("GET", "/soon") { _, _, responder, _ in
            DispatchQueue.global().async { responder.answer(.json(encoding: ["answeredBy": "soon"])) }
        }
        router.add("GET", "/deadline") { _, _, responder, _ in
            responder.setDeadline(after: .milliseconds(300)) { .json(encoding: ["answeredBy": "deadline"]) }
        }
        router.add("GET", "/pass") { request, parameters, responder, thread in
            let left = thread.leave {
                responder.answer(.json(encoding: ["answeredBy": "pass"]))
            }
            if !left { responder.answer(.json(encoding: ["answeredBy": "handler"])) }
        }
        let leftWorkDone = self.leftWorkDone
        router.add("GET", "/left") { request, parameters, responder, thread in
            _ = thread.leave { leftWorkDone.increment() }
            responder.answer(.json(encoding: ["answeredBy": "handler"]))
        }
        let preparedSlot = AttachmentSlot()
        router.add("GET", "/prepared") { request, parameters, responder, thread in
            let prepared = HTTPResponse.prepared(in: preparedSlot) { .json(encoding: ["answeredBy": "prepared"]) }
            responder.answer(request.query["extra"] == nil ? prepared : prepared.adding(header: "X-Extra", "1"))
        }
        // A header field libmicrohttpd refuses (a line break in its value): its checked result
        // closes the connection instead of sending a response without the field, or a split one.
        router.add("GET", "/refused-header") { request, _, responder, _ in
            let response = HTTPResponse(status: 200, headers: [("X-Split", "a\r\nInjected: yes")], body: Data("{}".utf8))
            if request.query["shared"] != nil {
                responder.answer(HTTPResponse.prepared(in: AttachmentSlot()) { response })
            } else {
                responder.answer(response)
            }
        }
        let reusable = self.reusable
        router.add("GET", "/reusable/{name}") { request, parameters, responder, thread in
            reusable.calls.add(1, ordering: .relaxed)
            let generation = reusable.generation.load(ordering: .relaxed)
            let name = parameters["name", default: ""]
            let prepared = HTTPResponse.prepared(in: reusable.slot("\(generation)/\(name)")) {
                .json(encoding: ["name": name, "generation": String(generation)])
            }
            responder.answer(
                prepared,
                reusableWhile: {
                    reusable.checks.add(1, ordering: .relaxed)
                    return reusable.generation.load(ordering: .relaxed) == generation
                })
        }
        router.add("GET", "/reusable-unshared") { _, _, responder, _ in
            reusable.calls.add(1, ordering: .relaxed)
            responder.answer(.json(encoding: ["shared": "no"]), reusableWhile: { true })
        }
        var quiet = Logger(label: "runtime-test")
        quiet.logLevel = .warning
        let logger = logger ?? quiet
        let routes = router
        server = HTTPServer(configuration: configuration, logger: logger) { request, responder, thread in
            routes.handle(request, responder: responder, thread: thread)
        }
        try server.start()
        let server = self.server
        timers = Task { await server.runTimers() }
    }

    /// Starts stopping the timers and the server, for a `defer` (which cannot wait); the test
    /// owns the task that stops them. ``stopped()`` waits for the stop.
    func stop() {
        let server = server
        timers.cancel()
        Task { await server.stop() }
    }

    /// Stops the timers and the server; returns once the server has stopped.
    func stopped() async {
        timers.cancel()
        await server.stop()
    }

    var port: Int { server.port }

    /// Sends `count` GETs of `path` at once and returns each answer's status and `answeredBy`.
    func concurrentAnswers(_ count: Int, _ path: String) async throws -> [(status: Int, answeredBy: String?)] {
        let port = self.port
        return try await withThrowingTaskGroup(of: (status: Int, answeredBy: String?).self) { group in
            for _ in 0..<count {
                group.addTask {
                    let response = try await TestHTTPClient.request(port: port, "GET", path)
                    return (response.status, response.json["answeredBy"] as? String)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Waits until `count` requests are parked on `/park`.
    func waitForParked(_ count: Int) async throws {
        let parked = try await eventually(every: .milliseconds(10)) {
            // Parked means suspended: the server registers a request before it suspends its
            // connection (and counts it unfinished), a few passes after the handler returned.
            self.parked.responders.withLock { $0.count } >= count && server.parkedRequestCount >= count
                && server.core.unfinishedParks.load(ordering: .relaxed) >= count
        }
        if !parked { throw TestHTTPClient.Failure(description: "requests were not parked") }
    }

    func takeParked() -> [Responder] {
        parked.responders.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
