import MVVMCore
import MVVMHTTP

/// What a route's handler answers with: the answer itself, or the way the answer comes.
///
/// A handler returns a reply or throws, so it cannot forget to answer: ``ReplyDelivery``
/// carries the reply out, and turns a thrown error, there or in the work the reply names, into
/// problem details. Only a ``later(_:)`` reply answers through a handle, explicitly.
package enum Reply: Sendable {
    /// Answers now.
    case response(HTTPResponse)
    /// Answers now, and lets the HTTP runtime send the same answer, without routing, to later
    /// plain reads of the same path while `isCurrent` says it still holds (see
    /// ``Responder/answer(_:reusableWhile:)``).
    case reusable(HTTPResponse, whileCurrent: Responder.Reuse)
    /// Runs a synchronous call on a context; its reply answers. On a polling thread the call
    /// runs on that thread when the context is idle (see ``ReplyDelivery``).
    case onContext(ContextActor, @Sendable (isolated ContextActor) throws -> Reply)
    /// Runs work that may suspend as a child task of the application's run; its reply answers.
    case task(@Sendable () async throws -> Reply)
    /// Answers later, through the handle `wait` is given: a long-poll waiting for a newer
    /// version, a request waiting for a session taken over from the state store. The request
    /// is parked meanwhile, and answered by its deadline when nothing answers it before.
    case later(@Sendable (_ handle: LaterAnswer) -> Void)

    /// Answers now with an error's problem details.
    static func problem(_ error: HTTPError) -> Reply {
        .response(error.response)
    }
}

/// The handle of a request answered later (a ``Reply/later(_:)``): the one way to answer it.
/// Only the first answer counts; the request's deadline answers it when nothing has.
package struct LaterAnswer: Sendable {
    let responder: Responder

    /// Answers the request; `false` when it was answered already (by its deadline, say).
    @discardableResult
    package func answer(_ response: HTTPResponse) -> Bool {
        responder.answer(response)
    }

    /// Answers the request with an error's problem details; `false` when it was answered
    /// already.
    @discardableResult
    package func answer(_ error: HTTPError) -> Bool {
        responder.answer(error)
    }

    /// Sets how long the request may wait, counted from now, and what answers it then.
    package func setDeadline(after duration: Duration, answer: @escaping @Sendable () -> HTTPResponse) {
        responder.setDeadline(after: duration, answer: answer)
    }
}

/// Thrown by a handler's step to answer with another reply than the handler's: a request for a
/// session that must first be taken over from the state store.
struct ReplyInstead: Error {
    /// The reply that answers instead.
    let reply: Reply
}
