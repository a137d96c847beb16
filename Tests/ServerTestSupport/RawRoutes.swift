import MVVMCore
import MVVMHTTP

/// Routes for servers that test the HTTP runtime itself, below the API's replies: each handler
/// gets the responder and the polling thread as the runtime gives them, and may answer now,
/// later or never (a parked request, a deadline).
package struct RawRoutes: Sendable {
    /// A handler: the request, its path parameters by name, the responder and the polling thread.
    package typealias Handler = @Sendable (HTTPRequest, [String: String], Responder, PollingThread) -> Void

    private var routes: [(method: String, pattern: PathPattern, handler: Handler)] = []

    /// No routes.
    package init() {}

    /// Adds a route for `method` and a path `pattern` (`/echo/{first}/{rest...}`).
    package mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        routes.append((method, PathPattern(pattern), handler))
    }

    /// Calls the handler of the first route that matches; a path served for other methods
    /// answers 405 with `Allow`, any other 404.
    package func handle(_ request: HTTPRequest, responder: Responder, thread: PollingThread) {
        var allowed: [String] = []
        if let segments = request.pathSegments {
            let method = request.method == "HEAD" ? "GET" : request.method
            for route in routes {
                guard let parameters = route.pattern.match(segments) else { continue }
                if route.method == method {
                    route.handler(request, parameters, responder, thread)
                    return
                }
                allowed.append(route.method)
            }
        }
        guard !allowed.isEmpty else {
            responder.answer(HTTPError(.notFound, detail: "No resource lives at this path."))
            return
        }
        if allowed.contains("GET") { allowed.append("HEAD") }
        let allow = allowed.joined(separator: ", ")
        responder.answer(HTTPError(.methodNotAllowed, detail: "This path allows \(allow).", headers: [.init(name: "Allow", value: allow)]))
    }
}
