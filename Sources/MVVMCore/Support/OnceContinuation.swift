import Synchronization

/// A continuation resumed exactly once, by whichever comes first: a value, a timeout or a
/// cancellation, even when the cancellation arrives before the continuation is installed.
final class OnceContinuation<Value: Sendable>: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Value, Never>)
        case finishedEarly(Value)
        case finished
    }

    private let state = Mutex<State>(.idle)
    private let finishActions = Mutex<[@Sendable () -> Void]>([])

    /// Installs the continuation; returns `false` (and resumes it) when a value came first.
    func install(_ continuation: CheckedContinuation<Value, Never>) -> Bool {
        let early: Value? = state.withLock { state in
            if case .finishedEarly(let value) = state {
                state = .finished
                return value
            }
            state = .waiting(continuation)
            return nil
        }
        if let early {
            continuation.resume(returning: early)
            return false
        }
        return true
    }

    /// Runs `action` when the continuation is resumed (at once if it already was).
    func onFinish(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if case .finished = state { return true }
            finishActions.withLock { $0.append(action) }
            return false
        }
        if runNow { action() }
    }

    /// Resumes with a value unless something resumed it already.
    func resume(_ value: Value) {
        let continuation: CheckedContinuation<Value, Never>? = state.withLock { state in
            switch state {
            case .idle:
                state = .finishedEarly(value)
                return nil
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .finishedEarly, .finished:
                return nil
            }
        }
        guard let continuation else { return }
        let actions = finishActions.withLock { actions in
            defer { actions.removeAll() }
            return actions
        }
        for action in actions { action() }
        continuation.resume(returning: value)
    }
}
