import Synchronization

/// The bounded history of a context's events, readable from any thread.
///
/// When the log is full the oldest event is dropped; reading after a sequence number older
/// than what is kept answers `nil`, and the client must re-read the state.
package final class EventLog: Sendable {
    private struct State {
        /// The events kept are `events[first...]`; dropped ones are compacted away in bulk.
        var events: [ContextEvent] = []
        var first = 0
        var lastDropped: UInt64 = 0

        var kept: ArraySlice<ContextEvent> { events[first...] }
    }

    /// How many events are kept.
    package let capacity: Int
    private let state: Mutex<State>

    /// An empty log keeping at most `capacity` events, whose events are numbered after
    /// `start`: the numbers up to `start` (a restored or recreated session's earlier events)
    /// count as dropped, so a read after one of them answers `nil` instead of a silent gap.
    package init(capacity: Int = 256, start: UInt64 = 0) {
        self.capacity = max(1, capacity)
        state = Mutex(State(lastDropped: start))
    }

    /// Appends an event.
    package func append(_ event: ContextEvent) {
        state.withLock { state in
            state.events.append(event)
            if state.events.count - state.first > capacity {
                state.lastDropped = state.events[state.first].seq
                state.first += 1
                // Dropped events are removed once they are as many as the kept ones: each
                // append moves a constant number of events on average.
                if state.first >= capacity {
                    state.events.removeFirst(state.first)
                    state.first = 0
                }
            }
        }
    }

    /// Drops the events after sequence number `seq` (those of a change that could not be saved).
    package func discard(after seq: UInt64) {
        state.withLock { state in
            while state.events.count > state.first, let last = state.events.last, last.seq > seq {
                state.events.removeLast()
            }
        }
    }

    /// The events after sequence number `seq`, in order, or `nil` when some of them were dropped.
    package func events(after seq: UInt64) -> [ContextEvent]? {
        state.withLock { state in
            guard seq >= state.lastDropped else { return nil }
            guard let first = state.kept.firstIndex(where: { $0.seq > seq }) else { return [] }
            return Array(state.events[first...])
        }
    }

    /// The sequence number of the newest event dropped to keep the log bounded, or the log's
    /// start when none was: reading after it gives every event kept.
    package var lastDroppedSeq: UInt64 {
        state.withLock { $0.lastDropped }
    }

    /// The sequence number of the last event, 0 when there is none.
    package var lastSeq: UInt64 {
        state.withLock { $0.kept.last?.seq ?? $0.lastDropped }
    }
}
