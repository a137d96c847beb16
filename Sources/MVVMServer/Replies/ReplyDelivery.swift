import MVVMCore
import MVVMHTTP

/// Carries out the replies of route handlers: the one place where a reply, or the error a
/// handler or its work threw, becomes the request's answer.
///
/// - ``Reply/onContext(_:_:)``: called on a polling thread, the call is left to that thread:
///   it runs there on the thread's next pass when the context is idle then (no thread hop, no
///   parked connection; the tasks the call started on the context, such as a new scene's load,
///   run there right after it, until they suspend, before the answer leaves). When the context
///   is busy then, the call waits in the context's queue and runs on the thread that ends the
///   call before it (``ContextActor/runOrQueue(_:)``). Called elsewhere, it goes to the
///   application's few draining tasks, which enter the context's actor: the call cannot
///   suspend, so a drainer waits at most for the context to finish the call it is in.
/// - ``Reply/task(_:)``: a child task of the application's run (``BackgroundWork``).
/// - ``Reply/later(_:)``: the handle is given at once; the request is parked until it answers.
final class ReplyDelivery: Sendable {
    let work: BackgroundWork
    /// Runs the context calls made off a polling thread.
    let contextCalls: WorkDrainer
    let metrics: Metrics

    /// Delivers replies with the application's background work, its drainer of context calls and
    /// its metrics.
    init(work: BackgroundWork, contextCalls: WorkDrainer, metrics: Metrics) {
        self.work = work
        self.contextCalls = contextCalls
        self.metrics = metrics
    }

    /// Answers with what `handle` replies, or with the problem its error maps to; `thread` is
    /// the polling thread that called the handler.
    func deliver(to responder: Responder, thread: PollingThread, _ handle: () throws -> Reply) {
        let reply: Reply
        do {
            reply = try handle()
        } catch {
            reply = Self.reply(for: error)
        }
        deliver(reply, to: responder, thread: thread)
    }

    /// The reply to a thrown error: its problem details, or the reply it carries
    /// (``ReplyInstead``).
    static func reply(for error: any Error) -> Reply {
        if let instead = error as? ReplyInstead { return instead.reply }
        return .problem(HTTPError.from(error))
    }

    /// Carries out `reply`.
    func deliver(_ reply: Reply, to responder: Responder, thread: PollingThread = .none) {
        switch reply {
        case .response(let response):
            responder.answer(response)
        case .reusable(let response, let isCurrent):
            responder.answer(response, reusableWhile: isCurrent)
        case .onContext(let context, let call):
            onContext(context, call, responder, thread: thread)
        case .task(let task):
            let started = work.start { [self] in
                let reply: Reply
                do {
                    reply = try await task()
                } catch {
                    reply = Self.reply(for: error)
                }
                deliver(reply, to: responder)
            }
            if !started { responder.answer(Self.stopping) }
        case .later(let wait):
            wait(LaterAnswer(responder: responder))
        }
    }

    private func onContext(
        _ context: ContextActor, _ call: @escaping @Sendable (isolated ContextActor) throws -> Reply, _ responder: Responder, thread: PollingThread
    ) {
        let number = thread.number
        let left = thread.leave { [self] in
            let ranNow = context.runOrQueue { [self] context in
                deliver(to: responder, thread: .none) { try call(context) }
            }
            if ranNow {
                metrics.countContextCallOnPollingThread(thread: number)
            } else {
                metrics.contextCallsQueued.increment()
            }
        }
        guard !left else { return }
        metrics.contextCallsQueued.increment()
        let submitted = contextCalls.submit { [self] in
            await context.run { [self] context in deliver(to: responder, thread: .none) { try call(context) } }
        }
        if !submitted { responder.answer(Self.stopping) }
    }

    /// The answer to a request whose work cannot start: the application is stopping.
    static var stopping: HTTPError {
        HTTPError.unavailable("The server is stopping.")
    }
}
