import Synchronization

/// Runs asynchronous work items off the calling thread with a few long-lived tasks instead of
/// one task per item: an item submitted while a drainer is running joins its queue, so a busy
/// server starts (and wakes a pool thread for) a task only when a drainer has run dry.
///
/// Items run one after another on each drainer; an item that awaits an actor busy elsewhere
/// holds its drainer, which is why there is more than one.
final class WorkDrainer: Sendable {
    typealias Work = @Sendable () async -> Void

    private struct State {
        var items: [Work] = []
        var head = 0
        var drainers = 0
    }

    private let state = Mutex(State())
    private let maxDrainers: Int

    init(maxDrainers: Int) {
        self.maxDrainers = max(1, maxDrainers)
    }

    /// Queues `work`; starts a drainer when fewer than the maximum are running.
    func submit(_ work: @escaping Work) {
        let startsDrainer = state.withLock { state -> Bool in
            state.items.append(work)
            guard state.drainers < maxDrainers else { return false }
            state.drainers += 1
            return true
        }
        if startsDrainer {
            Task { await self.drain() }
        }
    }

    private func drain() async {
        while let work = next() {
            await work()
        }
    }

    /// The next item, or `nil` (and this drainer counted out) when the queue is empty.
    private func next() -> Work? {
        state.withLock { state -> Work? in
            guard state.head < state.items.count else {
                state.items.removeAll(keepingCapacity: state.items.capacity <= 1024)
                state.head = 0
                state.drainers -= 1
                return nil
            }
            let work = state.items[state.head]
            state.head += 1
            if state.head >= 64, state.head * 2 >= state.items.count {
                state.items.removeFirst(state.head)
                state.head = 0
            }
            return work
        }
    }
}
