import Synchronization

/// Settling: waiting until no work of the context is running or waiting to run.
extension ContextActor {
    /// A waiter's number, made before it is added so that it can be cancelled from anywhere.
    package nonisolated static func makeSettleToken() -> UInt64 {
        settleTokens.add(1, ordering: .relaxed).newValue
    }

    /// Tells `settled`, with the context's summary at that moment, once none of its loads,
    /// actions and view-model tasks is running and no call or job waits for it: at once when
    /// that is so now. ``cancelSettleWait(_:)`` with the same token stops the wait.
    package func whenSettled(token: UInt64, _ settled: @escaping @Sendable (ContextSummary) -> Void) {
        settling.add(token, settled)
        checkSettled()
    }

    /// Whether a load, an action or a view-model task of the context is running (suspended
    /// ones included).
    package var hasRunningWork: Bool {
        settling.isRunning
    }

    /// Stops a wait of ``whenSettled(token:_:)``; `false` when it was told already.
    package func cancelSettleWait(_ token: UInt64) -> Bool {
        settling.remove(token)
    }

    /// Notes that a load, an action or a task ended, and tells the waiters when that settles the
    /// context.
    func workEnded() {
        settling.end { checkSettled() }
    }

    /// Tells the waiters when the context is settled. While work waits for the actor, checks
    /// again behind it (one check queued at a time).
    private func checkSettled() {
        guard settling.hasWaiters, !settling.isRunning else { return }
        guard waitingWorkCount > 0 else {
            let summary = summary()
            for waiter in settling.takeWaiters() { waiter(summary) }
            return
        }
        if settling.queueCheck() {
            _ = runOrQueue { actor in
                actor.settling.checkRuns()
                actor.checkSettled()
            }
        }
    }
}

/// The numbers of settle waiters, shared by every context.
private let settleTokens = Atomic<UInt64>(0)
