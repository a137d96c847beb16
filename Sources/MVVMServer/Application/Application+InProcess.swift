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

    /// Serves in-process requests for as long as `body` runs: opens the state store (one whose
    /// background work needs ``StateStore/run(handedOver:)``, PostgreSQL, is not served
    /// in-process), runs the work the application starts on its own as child tasks of this call,
    /// and gives `body` the router. When `body` returns or throws, every session ends (saved
    /// sessions stay saved), the state store closes and that work ends, as in a shutdown.
    /// - Throws: an error naming the state file when it cannot be used; whatever `body` throws.
    package func servingInProcess<Result>(_ body: (InProcessRouter) async throws -> Result) async throws -> Result {
        guard let pieces = work.open() else { throw HTTPServerError.alreadyStarted }
        return try await withThrowingTaskGroup(of: Void.self) { background in
            background.addTask { await self.work.run(pieces) }
            let outcome: Swift.Result<Result, any Error>
            do {
                if let storage = configuration.storage {
                    let store = try await storage.open(configuration.instance ?? "in-process", logger)
                    try await store.prepare()
                    stateStore.withLock { $0 = store }
                }
                let router = self.router
                activeRouter.withLock { $0 = router }
                outcome = .success(try await body(InProcessRouter(application: self, router: router)))
            } catch {
                outcome = .failure(error)
            }
            activeRouter.withLock { $0 = nil }
            await endSessions()
            await closeStateStore()
            background.cancelAll()
            return try outcome.get()
        }
    }

    /// Ends every session (each view model is cleared), as a shutdown does.
    package func endSessions() async {
        for session in sessions.removeAll() {
            await session.end()
        }
    }
}
