import MVVMHTTP

/// Recording the requests that change a session in its journal (testing mode).
extension API {
    /// `handler`, whose request is recorded with its answer in the journal of the session it
    /// names, in testing mode; `handler` itself otherwise. The answer recorded is the one that
    /// counts, refusals included.
    func journaled(_ handler: @escaping RouteHandler) -> RouteHandler {
        guard testing != nil else { return handler }
        return { [sessions] routed in
            let request = routed.request
            let id = routed["id"]
            let prefix = "/sessions/" + id
            let path = request.path.hasPrefix(prefix) ? String(request.path.dropFirst(prefix.count)) : request.path
            let reply: Reply
            do {
                reply = try handler(routed)
            } catch {
                reply = ReplyDelivery.reply(for: error)
            }
            return reply.observed { response in
                guard case .live(let session) = sessions.table.lookup(id, now: sessions.now) else { return }
                session.journal?.record(method: request.method, path: path, body: request.body, status: response.status, answer: response.body)
            }
        }
    }
}
