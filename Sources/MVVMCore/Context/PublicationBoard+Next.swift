extension PublicationBoard {
    /// Waits, without holding a thread, for a document of `topic` newer than `version`, at most
    /// `timeout`. Cancelling the calling task ends the wait with ``WaitOutcome/cancelled``.
    package func next(after version: UInt64, on topic: Topic, timeout: Duration) async -> WaitOutcome {
        await withTaskGroup(of: WaitOutcome?.self) { group in
            group.addTask { await self.next(after: version, on: topic) }
            group.addTask {
                // An interrupted sleep (the wait ended first, or the caller was cancelled) is no time-out.
                do { try await Task.sleep(for: timeout) } catch { return nil }
                return .timedOut
            }
            // The first outcome wins; the other child is cancelled.
            for await outcome in group {
                guard let outcome else { continue }
                group.cancelAll()
                return outcome
            }
            return .cancelled
        }
    }

    /// Waits, without holding a thread, for a document of `topic` newer than `version`, until
    /// the calling task is cancelled (``WaitOutcome/cancelled``).
    private func next(after version: UInt64, on topic: Topic) async -> WaitOutcome {
        let once = OnceContinuation<WaitOutcome>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard once.install(continuation) else { return }
                switch waitForNewer(than: version, on: topic, wake: { once.resume($0) }) {
                case .immediate(let outcome):
                    once.resume(outcome)
                case .waiting(let token):
                    once.onFinish { [self] in cancel(token) }
                }
            }
        } onCancel: {
            once.resume(.cancelled)
        }
    }
}
