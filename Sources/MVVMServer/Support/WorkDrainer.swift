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
    private let owner: BackgroundWork

    /// A drainer runs as a piece of `work`, so that it is a child task of the application's run.
    init(maxDrainers: Int, work: BackgroundWork) {
        self.maxDrainers = max(1, maxDrainers)
        owner = work
    }

    /// Queues `work`; starts a drainer when fewer than the maximum are running. Returns `false`,
    /// queueing nothing, when no drainer runs and none can be started (the application does not
    /// serve).
    @discardableResult
    func submit(_ work: @escaping Work) -> Bool {
        let startsDrainer = state.withLock { state -> Bool in
            state.items.append(work)
            guard state.drainers < maxDrainers else { return false }
            state.drainers += 1
            return true
        }
        guard startsDrainer else { return true }
        if owner.start({ await self.drain() }) { return true }
        // Nothing runs drainers: the item goes, and with it every item no drainer will take.
        state.withLock { state in
            state.drainers -= 1
            if state.drainers == 0 {
                state.items.removeAll()
                state.head = 0
            }
        }
        return false
    }

    /// How many drainers run now; none once the queue has run dry.
    var runningDrainers: Int {
        state.withLock { $0.drainers }
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
