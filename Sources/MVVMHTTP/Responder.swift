import Synchronization

/// The way a handler answers its request: exactly once, now or later, from any thread.
///
/// A handler that answers before it returns has its answer sent at once, on the thread
/// that called it. A handler that returns without answering parks the request: the
/// connection is suspended (no thread is held) until ``answer(_:)`` is called, or until
/// the request's deadline passes, whichever comes first.
///
/// - Important: Only the first answer counts; later ones return `false` and are dropped.
package final class Responder: Sendable {
    private enum State {
        /// Not answered; the connection is not suspended.
        case pending
        /// Not answered; the connection is suspended and `resume` wakes it.
        case parked(resume: @Sendable () -> Void)
        /// Answered; the runtime has not taken the answer yet.
        case ready(HTTPResponse, reuse: Reuse?)
        /// Answered and handed to the runtime.
        case delivered
    }

    /// Says whether a reusable answer still holds (see ``answer(_:reusableWhile:)``); called on
    /// a polling thread for every request answered with it, so it must be quick and must not block.
    package typealias Reuse = @Sendable () -> Bool

    /// What to do when a parked request's deadline passes.
    struct Deadline: Sendable {
        /// When it passes; `nil` until set, or until the request is parked with the default.
        var due: ContinuousClock.Instant?
        /// `nil` for the default answer (504), so that a request answered at once makes no closure.
        var answer: (@Sendable () -> HTTPResponse)?

        /// The answer it gives: the one set, or the default.
        var effectiveAnswer: @Sendable () -> HTTPResponse {
            answer ?? Responder.defaultDeadlineAnswer
        }
    }

    /// The answer of a request whose deadline passed before its handler set another one.
    private static let defaultDeadlineAnswer: @Sendable () -> HTTPResponse = {
        HTTPError(.deadlineExceeded, detail: "The request was not answered before its deadline.").response
    }

    private let state = Mutex<State>(.pending)
    private let routeIndex = Atomic<Int>(-1)
    private let deadlineSetting = Mutex(Deadline(due: nil, answer: nil))

    init() {}

    /// Answers the request. Returns `false` when it was already answered.
    @discardableResult
    package func answer(_ response: consuming HTTPResponse) -> Bool {
        store(response, reuse: nil)
    }

    /// Answers the request, and lets the runtime send this same answer again, without calling
    /// the handler, to later requests for the same target while `isCurrent` returns `true`:
    /// `GET` requests with the same path, no query string, no body, and none of the fields
    /// that ``HTTPServerConfiguration/reuseExclusions`` names (a request with any of these
    /// always reaches its handler). `isCurrent` is called for each such request before the
    /// answer is reused; an answer it no longer holds for is forgotten.
    ///
    /// Only a shared answer (one prepared once, see ``HTTPResponse/prepared(in:_:)``), given
    /// while the handler runs, is kept. Mark an answer reusable only when it depends on nothing
    /// but the path and what `isCurrent` checks: a published document, for as long as it is
    /// the current one. Returns `false` when the request was already answered.
    @discardableResult
    package func answer(_ response: consuming HTTPResponse, reusableWhile isCurrent: @escaping Reuse) -> Bool {
        store(response, reuse: isCurrent)
    }

    private func store(_ response: consuming HTTPResponse, reuse: Reuse?) -> Bool {
        // Moved into the state, not copied.
        var answer: HTTPResponse? = consume response
        let outcome: (accepted: Bool, resume: (@Sendable () -> Void)?) = state.withLock { state in
            switch state {
            case .pending:
                state = .ready(answer.take()!, reuse: reuse)
                return (true, nil)
            case .parked(let resume):
                state = .ready(answer.take()!, reuse: reuse)
                return (true, resume)
            case .ready, .delivered:
                return (false, nil)
            }
        }
        outcome.resume?()
        return outcome.accepted
    }

    /// Answers the request with an error's problem details.
    @discardableResult
    package func answer(_ error: HTTPError) -> Bool {
        answer(error.response)
    }

    /// Sets how long a parked request may wait and what it answers when that time has passed
    /// (a long-poll answers its current document). The time counts from this call.
    package func setDeadline(after duration: Duration, answer: @escaping @Sendable () -> HTTPResponse) {
        deadlineSetting.withLock { $0 = Deadline(due: .now + duration, answer: answer) }
    }

    /// The index of the route that handles the request in its router, -1 until one does.
    package var route: Int {
        get { routeIndex.load(ordering: .relaxed) }
        set { routeIndex.store(newValue, ordering: .relaxed) }
    }

    /// Whether the request has been answered.
    package var isAnswered: Bool {
        state.withLock { state in
            switch state {
            case .pending, .parked: false
            case .ready, .delivered: true
            }
        }
    }

    /// Gives the request the default deadline when its handler set none.
    func setDefaultDeadline(after duration: Duration) {
        deadlineSetting.withLock { if $0.due == nil { $0.due = .now + duration } }
    }

    /// The answer due now, when the deadline has passed.
    func expiredAnswer(at now: ContinuousClock.Instant) -> (@Sendable () -> HTTPResponse)? {
        deadlineSetting.withLock { deadline in
            guard let due = deadline.due, due <= now else { return nil }
            return deadline.effectiveAnswer
        }
    }

    /// The answer its deadline gives, whether or not the deadline has passed (for a request
    /// whose client went away before it was parked).
    func deadlineAnswer() -> @Sendable () -> HTTPResponse {
        deadlineSetting.withLock { $0.effectiveAnswer }
    }

    /// Takes the answer when there is one; otherwise calls `suspend` (under the lock, so that
    /// no answer can slip in between) and remembers `resume` for when the answer comes.
    func takeOrPark(suspend: () -> Void, resume: @escaping @Sendable () -> Void) -> HTTPResponse? {
        state.withLock { state in
            switch state {
            case .ready(let response, _):
                state = .delivered
                return response
            case .pending:
                suspend()
                state = .parked(resume: resume)
                return nil
            case .parked, .delivered:
                return nil
            }
        }
    }

    /// Takes the answer after the connection was resumed.
    func take() -> HTTPResponse? {
        takeReusable()?.response
    }

    /// Takes the answer, with what says whether it may be reused when the handler marked it so.
    func takeReusable() -> (response: HTTPResponse, reuse: Reuse?)? {
        state.withLock { state in
            guard case .ready = state else { return nil }
            // Swapped out, so that the answer is moved to the caller, not copied.
            var taken = State.delivered
            swap(&state, &taken)
            guard case .ready(let response, let reuse) = consume taken else { return nil }
            return (response, reuse)
        }
    }
}
