import Foundation
import MVVMSupport
import Synchronization

/// The latest encoded documents of one context, readable from any thread without waiting,
/// and the waiters for newer ones.
///
/// Each topic (a scene's state, its snapshot, the navigation, the events) holds one document
/// and its version. Waiting for "newer than N" holds no thread: a waiter is a callback, woken
/// by the publish that passes N (all waiters of a topic are woken by one change), or by
/// ``close()`` when the context ends.
package final class PublicationBoard: Sendable {
    /// What a document is about.
    package enum Topic: Hashable, Sendable {
        /// The state document of the scene under a key.
        case scene(String)
        /// The snapshot of the scene under a key.
        case snapshot(String)
        /// The context's navigation.
        case navigation
        /// The context's events (the version is the last event's sequence number).
        case events
    }

    /// How a wait ended.
    package enum WaitOutcome: Sendable {
        /// A document newer than the one waited on.
        case newer(Document)
        /// The context ended.
        case closed
        /// The wait's time ran out.
        case timedOut
        /// The waiting task was cancelled.
        case cancelled
    }

    /// How a registration went.
    package enum Registration: Sendable {
        /// The outcome is already known; the callback will not be called.
        case immediate(WaitOutcome)
        /// The callback will be called once; the token cancels it.
        case waiting(WaitToken)
    }

    /// Cancels a registered waiter.
    package struct WaitToken: Sendable, Hashable {
        let topic: Topic
        let id: Int
    }

    private struct Waiter {
        let after: UInt64
        let wake: @Sendable (WaitOutcome) -> Void
    }

    /// A change made while the board was held, applied when the hold ends.
    private enum HeldChange {
        case publish(Document, Topic, keepingHistory: Int)
        case remove(Topic)
    }

    private struct State {
        /// How many holds are on (``hold()``); while any is, changes wait in `held`.
        var holds = 0
        var held: [HeldChange] = []
        /// Made with room for a session's usual topics (its root scene's state and snapshot, the
        /// navigation, the events), the room it grows to anyway, without growing three times.
        var documents = [Topic: Document](minimumCapacity: 4)
        var history: [Topic: [Document]] = [:]
        var waiters: [Topic: [Int: Waiter]] = [:]
        var nextWaiterID = 0
        var waiterCount = 0
        var isClosed = false
        var isHandedOver = false
    }

    private let state = Mutex(State())

    /// An empty board.
    package init() {}

    /// The current document of a topic.
    package func document(_ topic: Topic) -> Document? {
        state.withLock { $0.documents[topic] }
    }

    /// Whether `document` is still the current document of `topic`: not replaced, not removed,
    /// and the board not closed. Documents are told apart by identity, not by version (a view
    /// model made again under the same key counts its versions again).
    package func isCurrent(_ document: Document, on topic: Topic) -> Bool {
        state.withLock { $0.documents[topic]?.attachment === document.attachment }
    }

    /// Whether a document read from this board with ``document(_:)`` is still its topic's
    /// current one: the check of ``isCurrent(_:on:)`` without the lock and the lookup, for a
    /// document known to have been current (a document is published on one topic).
    package func isStillCurrent(_ document: Document) -> Bool {
        !document.attachment.isRetired.load(ordering: .acquiring)
    }

    /// Whether the context has ended.
    package var isClosed: Bool {
        state.withLock { $0.isClosed }
    }

    /// How many waiters are registered.
    package var waiterCount: Int {
        state.withLock { $0.waiterCount }
    }

    /// The documents a topic published before its current one, oldest first (at most the
    /// `keepingHistory` count given to ``publish(_:on:keepingHistory:)``).
    package func history(_ topic: Topic) -> [Document] {
        state.withLock { $0.history[topic] ?? [] }
    }

    /// Publishes a document and wakes the waiters it satisfies; keeps up to `keepingHistory`
    /// earlier documents of the topic. While the board is held, the document waits for the
    /// hold's end.
    package func publish(_ document: Document, on topic: Topic, keepingHistory: Int = 0) {
        let woken: [Waiter] = state.withLock { state in
            guard !state.isClosed else { return [] }
            guard state.holds == 0 else {
                state.held.append(.publish(document, topic, keepingHistory: keepingHistory))
                return []
            }
            return Self.apply(document, on: topic, keepingHistory: keepingHistory, to: &state)
        }
        for waiter in woken { waiter.wake(.newer(document)) }
    }

    private static func apply(_ document: Document, on topic: Topic, keepingHistory: Int, to state: inout State) -> [Waiter] {
        if keepingHistory > 0, let previous = state.documents[topic] {
            var kept = state.history[topic] ?? []
            kept.append(previous)
            if kept.count > keepingHistory { kept.removeFirst(kept.count - keepingHistory) }
            state.history[topic] = kept
        }
        document.attachment.isRetired.store(false, ordering: .releasing)
        if let previous = state.documents.updateValue(document, forKey: topic), previous.attachment !== document.attachment {
            previous.attachment.isRetired.store(true, ordering: .releasing)
        }
        guard state.waiterCount > 0, var waiting = state.waiters[topic] else { return [] }
        let satisfied = waiting.filter { $0.value.after < document.version }
        for id in satisfied.keys { waiting[id] = nil }
        state.waiters[topic] = waiting.isEmpty ? nil : waiting
        state.waiterCount -= satisfied.count
        return Array(satisfied.values)
    }

    /// Forgets a topic's document (its view model left the store); its waiters stay and are
    /// woken by the next view model published under the same key. While the board is held,
    /// the removal waits for the hold's end.
    package func remove(_ topic: Topic) {
        state.withLock { state in
            guard state.holds == 0 else {
                state.held.append(.remove(topic))
                return
            }
            Self.remove(topic, from: &state)
        }
    }

    private static func remove(_ topic: Topic, from state: inout State) {
        state.documents.removeValue(forKey: topic)?.attachment.isRetired.store(true, ordering: .releasing)
        state.history[topic] = nil
    }

    /// Holds the board: what is published or removed from now on is not seen by readers nor
    /// wakes waiters until every hold has ended (``releaseHold()``), or is dropped
    /// (``discardHeld()``). For a change that must not be seen before it is saved.
    package func hold() {
        state.withLock { $0.holds += 1 }
    }

    /// Ends a hold; when it was the last, applies what waited, in order, and wakes the waiters
    /// it satisfies.
    package func releaseHold() {
        let woken: [(Waiter, Document)] = state.withLock { state in
            state.holds = max(0, state.holds - 1)
            guard state.holds == 0, !state.held.isEmpty, !state.isClosed else { return [] }
            let held = state.held
            state.held.removeAll()
            var woken: [(Waiter, Document)] = []
            for change in held {
                switch change {
                case .publish(let document, let topic, let keepingHistory):
                    woken += Self.apply(document, on: topic, keepingHistory: keepingHistory, to: &state).map { ($0, document) }
                case .remove(let topic):
                    Self.remove(topic, from: &state)
                }
            }
            return woken
        }
        for (waiter, document) in woken { waiter.wake(.newer(document)) }
    }

    /// Ends a hold and drops everything that waited for it (also what waited for other holds):
    /// readers keep seeing the documents from before.
    package func discardHeld() {
        state.withLock { state in
            state.holds = max(0, state.holds - 1)
            state.held.removeAll()
        }
    }

    /// The document of a topic as the context last published it: what waits for a hold's end,
    /// else the current one. For the answer to the change that is being held.
    package func latestDocument(_ topic: Topic) -> Document? {
        state.withLock { state in
            for change in state.held.reversed() {
                switch change {
                case .publish(let document, let heldTopic, _) where heldTopic == topic: return document
                case .remove(let heldTopic) where heldTopic == topic: return nil
                default: continue
                }
            }
            return state.documents[topic]
        }
    }

    /// Registers a callback for the first document of `topic` newer than `version`. When one
    /// exists already, or the current one is older than `version` (the client saw another run),
    /// or the board is closed, the outcome is immediate.
    package func waitForNewer(than version: UInt64, on topic: Topic, wake: @escaping @Sendable (WaitOutcome) -> Void) -> Registration {
        register(Waiter(after: version, wake: wake), on: topic, unlessCurrentIsNot: version)
    }

    /// Registers a callback for the next document published on `topic`, whatever its version
    /// (a view model made again under the same key counts its versions from 1 again), when the
    /// current one is the one of `version`. When the current one is another, or the board is
    /// closed, the outcome is immediate; when the topic has no document, the first one
    /// published wakes it.
    package func waitForChange(from version: UInt64, on topic: Topic, wake: @escaping @Sendable (WaitOutcome) -> Void) -> Registration {
        register(Waiter(after: 0, wake: wake), on: topic, unlessCurrentIsNot: version)
    }

    /// Registers a waiter, unless the board is closed or the topic's current document is not
    /// the one of `version` (then the outcome is immediate).
    private func register(_ waiter: Waiter, on topic: Topic, unlessCurrentIsNot version: UInt64) -> Registration {
        state.withLock { state in
            if state.isClosed { return .immediate(.closed) }
            if let current = state.documents[topic], current.version != version {
                return .immediate(.newer(current))
            }
            state.nextWaiterID += 1
            state.waiterCount += 1
            state.waiters[topic, default: [:]][state.nextWaiterID] = waiter
            return .waiting(WaitToken(topic: topic, id: state.nextWaiterID))
        }
    }

    /// Removes a waiter; its callback will not be called. Returns `false` when it was already woken.
    @discardableResult
    package func cancel(_ token: WaitToken) -> Bool {
        state.withLock { state in
            guard state.waiters[token.topic]?.removeValue(forKey: token.id) != nil else { return false }
            state.waiterCount -= 1
            if state.waiters[token.topic]?.isEmpty == true { state.waiters[token.topic] = nil }
            return true
        }
    }

    /// Whether the board was closed because its session is served elsewhere from now on
    /// (``close(handedOver:)``), not because it ended.
    package var wasHandedOver: Bool {
        state.withLock { $0.isHandedOver }
    }

    /// Ends the context: wakes every waiter with ``WaitOutcome/closed`` and refuses new ones.
    /// `handedOver` tells the waiters (through ``wasHandedOver``) that the session goes on
    /// elsewhere: another server took it over.
    package func close(handedOver: Bool = false) {
        let woken: [Waiter] = state.withLock { state in
            state.isClosed = true
            state.isHandedOver = state.isHandedOver || handedOver
            state.held.removeAll()
            let all = state.waiters.values.flatMap(\.values)
            state.waiters.removeAll()
            for document in state.documents.values { document.attachment.isRetired.store(true, ordering: .releasing) }
            state.documents.removeAll()
            state.history.removeAll()
            state.waiterCount = 0
            return all
        }
        for waiter in woken { waiter.wake(.closed) }
    }
}
