/// One request answered without a connection: the handler gets a responder as the runtime
/// would give it, and the caller waits for its answer, or for its deadline (the default one,
/// or the one the handler set) and the answer that gives. For the in-process router of the
/// testing product. A streamed answer's body is what its stream has to send at once.
package enum InProcessExchange {
    /// Calls `handler` with a new responder and waits for the answer.
    package static func respond(defaultDeadline: Duration, _ handler: (Responder) -> Void) async -> HTTPResponse {
        let responder = Responder()
        handler(responder)
        responder.setDefaultDeadline(after: defaultDeadline)
        return await withTaskGroup(of: HTTPResponse?.self) { group in
            group.addTask { await takeAnswer(of: responder) }
            group.addTask {
                await enforceDeadline(of: responder)
                return nil
            }
            var answer: HTTPResponse?
            while answer == nil, let next = await group.next() {
                answer = next
            }
            group.cancelAll()
            guard var answer else { return HTTPError(.deadlineExceeded, detail: "The request was not answered.").response }
            if let stream = answer.stream {
                answer.body = stream.takeAvailable()
                answer.stream = nil
            }
            return answer
        }
    }

    /// The answer, as soon as there is one.
    private static func takeAnswer(of responder: Responder) async -> HTTPResponse? {
        let immediate: HTTPResponse? = await withCheckedContinuation { continuation in
            if let response = responder.takeOrPark(suspend: {}, resume: { continuation.resume(returning: nil) }) {
                continuation.resume(returning: response)
            }
        }
        return immediate ?? responder.take()
    }

    /// Answers the request with what its deadline gives once that has passed; returns when
    /// the request is answered, or when the calling task is cancelled.
    private static func enforceDeadline(of responder: Responder) async {
        while !Task.isCancelled, !responder.isAnswered {
            if let expired = responder.expiredAnswer(at: .now) {
                responder.answer(expired())
                return
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
