import MVVMHTTP

/// Serving without sockets, for the testing product: requests go straight to the router and
/// are answered as the HTTP runtime would answer them.
extension Application {
    /// The routes, made once for a run of in-process requests.
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
            return await InProcessExchange.respond(defaultDeadline: deadline) { responder in
                router.handle(request, responder: responder)
            }
        }
    }

    /// A router for in-process requests, with the state store open (one whose background work
    /// needs ``StateStore/run(handedOver:)``, PostgreSQL, is not served in-process);
    /// ``endInProcess()`` ends what they made.
    /// - Throws: an error naming the state file when it cannot be used.
    package func inProcessRouter() async throws -> InProcessRouter {
        if let storage = configuration.storage {
            let store = try await storage.open(configuration.instance ?? "in-process", logger)
            try await store.prepare()
            stateStore.withLock { $0 = store }
        }
        let router = self.router
        activeRouter.withLock { $0 = router }
        return InProcessRouter(application: self, router: router)
    }

    /// Ends every session (saved sessions stay saved) and closes the state store, as a shutdown
    /// does.
    package func endInProcess() async {
        activeRouter.withLock { $0 = nil }
        await endSessions()
        await closeStateStore()
    }

    /// Ends every session (each view model is cleared), as a shutdown does.
    package func endSessions() async {
        for session in sessions.removeAll() {
            await session.end()
        }
    }
}
