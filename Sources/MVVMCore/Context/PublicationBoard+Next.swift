extension PublicationBoard {
    /// Waits, without holding a thread, for a document of `topic` newer than `version`, at most
    /// `timeout`. Cancelling the calling task ends the wait with ``WaitOutcome/cancelled``.
    package func next(after version: UInt64, on topic: Topic, timeout: Duration) async -> WaitOutcome {
        let once = OnceContinuation<WaitOutcome>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard once.install(continuation) else { return }
                switch waitForNewer(than: version, on: topic, wake: { once.resume($0) }) {
                case .immediate(let outcome):
                    once.resume(outcome)
                case .waiting(let token):
                    once.onFinish { [self] in cancel(token) }
                    Task {
                        try? await Task.sleep(for: timeout)
                        once.resume(.timedOut)
                    }
                }
            }
        } onCancel: {
            once.resume(.cancelled)
        }
    }
}
