import MVVMHTTP

/// Serving without sockets, for the testing product: requests go straight to the router and
/// are answered as the HTTP runtime would answer them (see ``Application/servingInProcess(_:)``).
package struct InProcessRouter: Sendable {
    let application: Application
    let router: Router

    /// Answers one request: a body over the server's limit answers 413, as the runtime
    /// does; a request left parked answers when its deadline passes.
    package func respond(to request: HTTPRequest) async -> HTTPResponse {
        let limit = application.configuration.http.maxBodyBytes
        guard request.body.count <= limit else {
            return HTTPError(.payloadTooLarge, detail: "The body is larger than \(limit) bytes.").response
        }
        let deadline = Duration.seconds(application.configuration.maxWaitSeconds + 60)
        let delivery = application.delivery
        return await InProcessExchange.respond(defaultDeadline: deadline) { responder in
            router.handle(request, responder: responder, delivery: delivery)
        }
    }
}
