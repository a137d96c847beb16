import MVVMCore
import MVVMHTTP

/// A request matched to a route, with the values of the route's path parameters.
package struct RoutedRequest: Sendable {
    /// The request.
    package let request: HTTPRequest
    /// Path parameters in pattern order, percent-decoded.
    let pairs: [PathPattern.Parameter]
    /// The route's pattern, e.g. `/sessions/{id}`; used for metrics and logs.
    package let pattern: PathPattern

    /// A path parameter that the route's pattern guarantees. A name the pattern does not have
    /// is a mistake of the route's code, not of the client: it stops a debug build at once
    /// (tests find it on the route's first request); a release build reads it as empty.
    package subscript(_ name: String) -> String {
        if let value = pairs.first(where: { $0.name == name })?.value { return value }
        assert(pattern.parameterNames.contains(name), "the route \(pattern) has no path parameter named '\(name)'")
        return ""
    }

    /// Path parameters by name, percent-decoded.
    package var parameters: [String: String] {
        PathPattern.Parameter.dictionary(pairs)
    }
}

/// Handles one routed request: returns the reply that answers it, or throws the error whose
/// problem details answer it.
package typealias RouteHandler = @Sendable (RoutedRequest) throws -> Reply

/// Maps a method and a path to a handler.
///
/// An unknown path answers 404; a known path with another method answers 405 with an
/// `Allow` header; a method the server does not know at all answers 501. `HEAD` is
/// served by the `GET` route.
package struct Router: Sendable {
    /// One route: a method, a pattern and its handler.
    package struct Route: Sendable {
        /// The method, upper case.
        package let method: String
        /// The path pattern.
        package let pattern: PathPattern
        /// The route's position in its router.
        package let index: Int
        let handler: RouteHandler
    }

    /// The methods the server understands: those of RFC 9110 and PATCH. A known method that
    /// a path does not serve answers 405; anything else answers 501.
    package static let knownMethods: Set<String> = Set(knownMethodList)

    /// ``knownMethods`` as a list: nine short strings are compared faster than one is hashed.
    private static let knownMethodList = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]

    /// Whether the method is one of ``knownMethods``.
    static func isKnown(_ method: String) -> Bool {
        knownMethodList.contains(method)
    }

    /// The routes in the order they were added.
    package private(set) var routes: [Route] = []
    /// How many segments each route's pattern takes, beside `routes`: plain integers, so that
    /// ruling a route out by its segment count touches no reference-counted storage.
    private var segmentCounts: [ClosedRange<Int>] = []

    /// Makes an empty router.
    package init() {}

    /// Adds a route.
    package mutating func add(_ method: String, _ pattern: String, _ handler: @escaping RouteHandler) {
        let pattern = PathPattern(pattern)
        routes.append(Route(method: method, pattern: pattern, index: routes.count, handler: handler))
        segmentCounts.append(pattern.segmentCounts)
    }

    /// Routes a request: calls the matching handler and has `delivery` carry out its reply
    /// (`thread` is the polling thread that read the request), or answers the routing error.
    func handle(_ request: consuming HTTPRequest, responder: Responder, thread: PollingThread = .none, delivery: ReplyDelivery) {
        switch match(request) {
        case .success(let (index, parameters)):
            responder.route = index
            // Built in place for the handler: no copy of the request or the route.
            let routed = RoutedRequest(request: request, pairs: parameters, pattern: routes[index].pattern)
            delivery.deliver(to: responder, thread: thread) { try routes[index].handler(routed) }
        case .failure(let error):
            responder.answer(error.response)
        }
    }

    /// Finds the route for a request, or the error that answers it.
    package func resolve(_ request: HTTPRequest) -> Result<(Route, RoutedRequest), HTTPError> {
        match(request).map { index, parameters in
            (routes[index], RoutedRequest(request: request, pairs: parameters, pattern: routes[index].pattern))
        }
    }

    /// What routing found: the index of the route and its path parameters, or the error that
    /// answers the request.
    private func match(_ request: HTTPRequest) -> Result<(index: Int, parameters: [PathPattern.Parameter]), HTTPError> {
        guard Self.isKnown(request.method) else {
            return .failure(HTTPError(.notImplemented, detail: "The method is not supported by this server."))
        }
        guard let segments = request.pathSegments else {
            return .failure(
                HTTPError(.badRequest, detail: "The path is not valid: a percent escape is malformed, or decodes to invalid UTF-8 or NUL."))
        }
        let method = request.method == "HEAD" ? "GET" : request.method
        var allowed: [String] = []
        for index in routes.indices where segmentCounts[index].contains(segments.count) {
            guard let parameters = routes[index].pattern.matchPairs(segments) else { continue }
            if routes[index].method == method {
                return .success((index, parameters))
            }
            allowed.append(routes[index].method)
        }
        if allowed.isEmpty {
            return .failure(HTTPError(.notFound, detail: "No resource lives at this path."))
        }
        if allowed.contains("GET") { allowed.append("HEAD") }
        let allow = allowed.joined(separator: ", ")
        return .failure(HTTPError(.methodNotAllowed, detail: "This path allows \(allow).", headers: [.init(name: "Allow", value: allow)]))
    }
}
