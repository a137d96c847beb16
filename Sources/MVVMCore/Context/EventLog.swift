import Synchronization

/// The bounded history of a context's events, readable from any thread.
///
/// When the log is full the oldest event is dropped; reading after a sequence number older
/// than what is kept answers `nil`, and the client must re-read the state.
package final class EventLog: Sendable {
    /// The events kept, oldest first from `oldest`: a ring once it holds `capacity` events,
    /// whose storage grows by half (from room for ``initialRoom`` events) until then.
    private struct State {
        var ring: [ContextEvent] = []
        /// The ring's index of the oldest event kept (0 until the ring is full).
        var oldest = 0
        var lastDropped: UInt64 = 0

        /// The event kept at `position`, counted from the oldest (0) to the newest.
        func event(at position: Int) -> ContextEvent {
            ring[(oldest + position) % ring.count]
        }

        /// The events kept at `positions` (counted from the oldest), in order.
        func events(_ positions: Range<Int>) -> [ContextEvent] {
            positions.map(event(at:))
        }

        /// The position of the first event kept after sequence number `seq` (the number kept
        /// when none is): those after it are the newest, so it counts back from the newest.
        func firstPosition(after seq: UInt64) -> Int {
            var first = ring.count
            while first > 0, event(at: first - 1).seq > seq { first -= 1 }
            return first
        }

        /// The newest event kept.
        var newest: ContextEvent? {
            ring.isEmpty ? nil : event(at: ring.count - 1)
        }
    }

    /// Room for a session's first events (its root scene's and another's lifecycle), made at
    /// the first append.
    private static let initialRoom = 10

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
            if state.ring.count == capacity {
                state.lastDropped = state.ring[state.oldest].seq
                state.ring[state.oldest] = event
                state.oldest = (state.oldest + 1) % capacity
                return
            }
            if state.ring.count == state.ring.capacity {
                let room = state.ring.isEmpty ? Self.initialRoom : state.ring.count + state.ring.count / 2
                state.ring.reserveCapacity(min(capacity, room))
            }
            state.ring.append(event)
        }
    }

    /// Drops the events after sequence number `seq` (those of a change that could not be saved).
    package func discard(after seq: UInt64) {
        state.withLock { state in
            let kept = state.firstPosition(after: seq)
            guard kept < state.ring.count else { return }
            state.ring = state.events(0..<kept)
            state.oldest = 0
        }
    }

    /// The events after sequence number `seq`, in order, or `nil` when some of them were dropped.
    package func events(after seq: UInt64) -> [ContextEvent]? {
        state.withLock { state in
            guard seq >= state.lastDropped else { return nil }
            return state.events(state.firstPosition(after: seq)..<state.ring.count)
        }
    }

    /// The sequence number of the newest event dropped to keep the log bounded, or the log's
    /// start when none was: reading after it gives every event kept.
    package var lastDroppedSeq: UInt64 {
        state.withLock { $0.lastDropped }
    }

    /// The sequence number of the last event, 0 when there is none.
    package var lastSeq: UInt64 {
        state.withLock { $0.newest?.seq ?? $0.lastDropped }
    }
}
