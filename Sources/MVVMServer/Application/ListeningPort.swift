import MVVMHTTP
import Synchronization

/// The port an application listens on, for whoever waits for it: known once its `run()` has
/// bound the address, an error when that failed or once it has stopped.
final class ListeningPort: Sendable {
    private enum State {
        /// Not listening yet; the waiters by their number.
        case waiting([Int: CheckedContinuation<Int, any Error>])
        case listening(Int)
        case ended(any Error)
    }

    private let state = Mutex<(state: State, nextWaiter: Int)>((.waiting([:]), 0))

    /// The port, once known; waits until then.
    /// - Throws: the error it ended with, or `CancellationError` when the waiting task is cancelled.
    func value() async throws -> Int {
        let waiter = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let known: Result<Int, any Error>? = state.withLock { state in
                    switch state.state {
                    case .listening(let port): return .success(port)
                    case .ended(let error): return .failure(error)
                    case .waiting(var waiters):
                        if Task.isCancelled { return .failure(CancellationError()) }
                        waiters[waiter] = continuation
                        state.state = .waiting(waiters)
                        return nil
                    }
                }
                if let known { continuation.resume(with: known) }
            }
        } onCancel: {
            let cancelled: CheckedContinuation<Int, any Error>? = state.withLock { state in
                guard case .waiting(var waiters) = state.state, let continuation = waiters.removeValue(forKey: waiter) else { return nil }
                state.state = .waiting(waiters)
                return continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// The address is bound: every waiter learns the port.
    func bound(_ port: Int) {
        settle(.listening(port))
    }

    /// Listening failed: every waiter learns why.
    func failed(_ error: any Error) {
        settle(.ended(error))
    }

    /// The application stopped listening.
    func ended() {
        settle(.ended(HTTPServerError.stopped))
    }

    private func settle(_ outcome: State) {
        let waiters: [CheckedContinuation<Int, any Error>] = state.withLock { state in
            defer { state.state = outcome }
            if case .waiting(let waiters) = state.state { return Array(waiters.values) }
            return []
        }
        for waiter in waiters {
            switch outcome {
            case .listening(let port): waiter.resume(returning: port)
            case .ended(let error): waiter.resume(throwing: error)
            case .waiting: break
            }
        }
    }
}
