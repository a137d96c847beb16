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
    /// Told the answer that counts, when set (see ``Reply/observed(_:)``).
    var observer: (@Sendable (HTTPResponse) -> Void)?

    /// Answers the request; `false` when it was answered already (by its deadline, say).
    @discardableResult
    package func answer(_ response: HTTPResponse) -> Bool {
        guard responder.answer(response) else { return false }
        observer?(response)
        return true
    }

    /// Answers the request with an error's problem details; `false` when it was answered
    /// already.
    @discardableResult
    package func answer(_ error: HTTPError) -> Bool {
        answer(error.response)
    }

    /// Sets how long the request may wait, counted from now, and what answers it then.
    package func setDeadline(after duration: Duration, answer: @escaping @Sendable () -> HTTPResponse) {
        guard let observer else {
            responder.setDeadline(after: duration, answer: answer)
            return
        }
        responder.setDeadline(after: duration) {
            let response = answer()
            observer(response)
            return response
        }
    }
}

extension Reply {
    /// This reply, with `observe` told the response that answers the request: the one it
    /// carries, the one its work returns, or the problem details of an error thrown on the
    /// way. A reply answered later tells it when its answer counts.
    func observed(_ observe: @escaping @Sendable (HTTPResponse) -> Void) -> Reply {
        switch self {
        case .response(let response):
            observe(response)
            return self
        case .reusable(let response, _):
            observe(response)
            return self
        case .onContext(let context, let call):
            return .onContext(context) { context in
                do {
                    return try call(context).observed(observe)
                } catch {
                    return ReplyDelivery.reply(for: error).observed(observe)
                }
            }
        case .task(let work):
            return .task {
                do {
                    return try await work().observed(observe)
                } catch {
                    return ReplyDelivery.reply(for: error).observed(observe)
                }
            }
        case .later(let wait):
            return .later { handle in
                var observed = handle
                let outer = handle.observer
                observed.observer = { response in
                    outer?(response)
                    observe(response)
                }
                wait(observed)
            }
        }
    }
}

/// Thrown by a handler's step to answer with another reply than the handler's: a request for a
/// session that must first be taken over from the state store.
struct ReplyInstead: Error {
    /// The reply that answers instead.
    let reply: Reply
}
