import Foundation
import Logging
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import ServerTestSupport
import Synchronization
import TestSupport

@testable import Scenes

/// A SWAPI look-alike on a free loopback port, for testing the HTTP client: it serves the
/// embedded data set at `/api/films/`, `/api/films/{id}/`, `/api/people/`, … and can be told,
/// through its ``control``, to answer late, to fail, to answer malformed JSON, or to split
/// the people into pages linked by absolute `next` URLs.
final class SwapiFixtureServer: Sendable {
    /// What the fixture does with the next requests, and what it has seen; thread-safe.
    final class Control: Sendable {
        /// What to do with one request.
        enum Plan: Sendable {
            case serve
            case fail(status: Int)
            case malformed
        }

        private struct State {
            var delay: Duration = .zero
            var failures: (remaining: Int, status: Int) = (0, 503)
            var malformed = false
            var peoplePageSize: Int?
            var requests: [String] = []
        }

        private let state = Mutex(State())

        /// Answers every later request `delay` late.
        func delay(_ delay: Duration) {
            state.withLock { $0.delay = delay }
        }

        /// Fails the next `count` requests with `status`.
        func failNext(_ count: Int, status: Int) {
            state.withLock { $0.failures = (count, status) }
        }

        /// Fails every later request with `status` until ``recover()``.
        func failAll(status: Int) {
            failNext(.max, status: status)
        }

        /// Answers later successful requests with a body that is not JSON.
        func answerMalformedJSON() {
            state.withLock { $0.malformed = true }
        }

        /// Splits `people/` into pages of `size` records.
        func pagePeople(size: Int) {
            state.withLock { $0.peoplePageSize = size }
        }

        /// Serves normally again: no delay, no failures, well-formed JSON.
        func recover() {
            state.withLock { state in
                state.delay = .zero
                state.failures = (0, 503)
                state.malformed = false
            }
        }

        /// The requests seen, as paths under `/api/` with their query, e.g. `people/?page=2`.
        var requests: [String] {
            state.withLock { $0.requests }
        }

        var peoplePageSize: Int? {
            state.withLock { $0.peoplePageSize }
        }

        /// Records a request and decides how to answer it.
        func plan(for request: String) -> (plan: Plan, delay: Duration) {
            state.withLock { state in
                state.requests.append(request)
                if state.failures.remaining > 0 {
                    if state.failures.remaining != .max { state.failures.remaining -= 1 }
                    return (.fail(status: state.failures.status), state.delay)
                }
                return (state.malformed ? .malformed : .serve, state.delay)
            }
        }
    }

    /// Steers the fixture.
    let control: Control
    private let server: HTTPServer
    /// The server's timers (deadlines, slow clients), run until ``stop()``.
    private let timers: Task<Void, Never>

    /// Starts the fixture on a free port.
    init() throws {
        let control = Control()
        self.control = control
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        var logger = Logger(label: "swapi-fixture")
        logger.logLevel = .warning
        var router = RawRoutes()
        for resource in ["films", "people", "planets"] {
            router.add("GET", "/api/\(resource)") { [control] request, parameters, responder, _ in
                Self.serve("\(resource)/", request, control, responder)
            }
            router.add("GET", "/api/\(resource)/{id}") { [control] request, parameters, responder, _ in
                Self.serve("\(resource)/\(parameters["id", default: ""])/", request, control, responder)
            }
        }
        let routes = router
        server = HTTPServer(configuration: configuration, logger: logger) { request, responder, thread in
            // SWAPI's paths end with a slash; the router matches them without it.
            var trimmed = request
            if trimmed.path.count > 1 && trimmed.path.hasSuffix("/") { trimmed.path.removeLast() }
            routes.handle(trimmed, responder: responder, thread: thread)
        }
        try server.start()
        let server = self.server
        timers = Task { await server.runTimers() }
    }

    /// The port it listens on.
    var port: Int {
        server.port
    }

    /// The base URL a ``URLSessionTransport`` is given.
    var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)/api/")!
    }

    /// Starts stopping, for a `defer` (which cannot wait): the test owns the task that stops
    /// the server.
    func stop() {
        let server = server
        timers.cancel()
        Task { await server.stop() }
    }

    private static func serve(_ path: String, _ request: HTTPRequest, _ control: Control, _ responder: Responder) {
        let page = request.query["page"].flatMap(Int.init)
        let (plan, delay) = control.plan(for: path + (page.map { "?page=\($0)" } ?? ""))
        let host = request.header("host") ?? "127.0.0.1"
        let pageSize = control.peoplePageSize
        Task {
            if delay > .zero { try? await Task.sleep(for: delay) }
            switch plan {
            case .fail(let status):
                responder.answer(.json(Data(#"{"detail":"The fixture was told to fail."}"#.utf8), status: status))
            case .malformed:
                responder.answer(.json(Data(#"{"count": 9, "results": [{"title": "#.utf8)))
            case .serve:
                guard let (status, body) = try? await EmbeddedSwapiTransport().fetch(path) else {
                    responder.answer(HTTPResponse(status: 500))
                    return
                }
                if path == "people/", let pageSize, let paged = Self.page(body, number: page ?? 1, size: pageSize, host: host) {
                    responder.answer(.json(paged, status: status))
                } else {
                    responder.answer(.json(body, status: status))
                }
            }
        }
    }

    /// Page `number` of a SWAPI list, with `next` as an absolute URL to the page after it.
    private static func page(_ list: Data, number: Int, size: Int, host: String) -> Data? {
        guard var object = try? JSONSerialization.jsonObject(with: list) as? [String: Any],
            let results = object["results"] as? [Any]
        else { return nil }
        let start = min((number - 1) * size, results.count)
        let end = min(start + size, results.count)
        object["results"] = Array(results[start..<end])
        object["next"] = end < results.count ? "http://\(host)/api/people/?page=\(number + 1)" : NSNull()
        object["previous"] = number > 1 ? "http://\(host)/api/people/?page=\(number - 1)" : NSNull()
        return try? JSONSerialization.data(withJSONObject: object)
    }
}
