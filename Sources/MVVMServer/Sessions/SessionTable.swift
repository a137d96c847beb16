import MVVMHTTP
import Synchronization

/// The live sessions, readable from any thread without entering an actor.
///
/// Deleted and expired ids are remembered for a while (a tombstone), so that late requests
/// learn the session is gone (410) rather than unknown (404).
final class SessionTable: Sendable {
    enum Lookup {
        case live(Session)
        case gone
        case unknown
    }

    private struct State {
        var sessions: [String: Session] = [:]
        var tombstones: [String: UInt64] = [:]
        /// The buried ids, oldest first from `buriedHead`: every tombstone lasts as long, so the
        /// oldest is the first to expire and the first to go when there are too many.
        var buried: [String] = []
        var buriedHead = 0
    }

    private let state = Mutex(State())
    private let tombstoneMilliseconds: UInt64
    private let maxTombstones: Int

    init(tombstoneSeconds: Int = 600, maxTombstones: Int = 100_000) {
        tombstoneMilliseconds = UInt64(tombstoneSeconds) * 1000
        self.maxTombstones = max(1, maxTombstones)
    }

    var count: Int {
        state.withLock { $0.sessions.count }
    }

    func lookup(_ id: String, now: UInt64) -> Lookup {
        state.withLock { state in
            if let session = state.sessions[id] {
                session.touch(now)
                return .live(session)
            }
            if let until = state.tombstones[id], until > now { return .gone }
            return .unknown
        }
    }

    /// Adds a session; at `capacity`, first evicts the least recently used session that has
    /// no parked request. Returns the evicted session, or `nil` in `.failure` when all are busy.
    func insert(_ session: Session, capacity: Int, now: UInt64) -> Result<Session?, HTTPError> {
        state.withLock { state in insert(session, capacity: capacity, now: now, in: &state) }
    }

    /// Adds a session unless one with its id is already there (another request restored it
    /// first), in one step: returns the session in the table, and the one evicted to make room,
    /// if any.
    func insertIfAbsent(_ session: Session, capacity: Int, now: UInt64) -> Result<(session: Session, evicted: Session?), HTTPError> {
        state.withLock { state in
            if let existing = state.sessions[session.id] { return .success((existing, nil)) }
            return insert(session, capacity: capacity, now: now, in: &state)
                .map { (session, $0) }
        }
    }

    private func insert(_ session: Session, capacity: Int, now: UInt64, in state: inout State) -> Result<Session?, HTTPError> {
        var evicted: Session?
        if state.sessions.count >= capacity {
            let idle = state.sessions.values.filter { $0.parkedRequests.load(ordering: .relaxed) == 0 }
            guard let oldest = idle.min(by: { $0.lastUsed < $1.lastUsed }) else {
                return .failure(.capacity("Every one of the \(capacity) sessions has a parked request."))
            }
            state.sessions[oldest.id] = nil
            Self.bury(oldest.id, in: &state, until: now + tombstoneMilliseconds, limit: maxTombstones)
            evicted = oldest
        }
        state.sessions[session.id] = session
        return .success(evicted)
    }

    /// Removes a session, leaving a tombstone.
    func remove(_ id: String, now: UInt64) -> Session? {
        state.withLock { state in
            guard let session = state.sessions.removeValue(forKey: id) else { return nil }
            Self.bury(id, in: &state, until: now + tombstoneMilliseconds, limit: maxTombstones)
            return session
        }
    }

    /// Removes `session` without a tombstone (another server holds it now); `false` when it is
    /// no longer in the table.
    func release(_ session: Session) -> Bool {
        state.withLock { state in
            guard state.sessions[session.id] === session else { return false }
            state.sessions[session.id] = nil
            return true
        }
    }

    /// Removes the sessions idle for longer than `idleMilliseconds` with no parked request.
    func removeExpired(idleMilliseconds: UInt64, now: UInt64) -> [Session] {
        state.withLock { state in
            Self.forgetTombstones(in: &state) { $0 <= now }
            let expired = state.sessions.values.filter {
                now > $0.lastUsed + idleMilliseconds && $0.parkedRequests.load(ordering: .relaxed) == 0
            }
            for session in expired {
                state.sessions[session.id] = nil
                Self.bury(session.id, in: &state, until: now + tombstoneMilliseconds, limit: maxTombstones)
            }
            return expired
        }
    }

    /// Every live session.
    var all: [Session] {
        state.withLock { Array($0.sessions.values) }
    }

    /// Removes every session (the server stops).
    func removeAll() -> [Session] {
        state.withLock { state in
            defer { state.sessions.removeAll() }
            return Array(state.sessions.values)
        }
    }

    private static func bury(_ id: String, in state: inout State, until: UInt64, limit: Int) {
        if state.tombstones.count >= limit {
            var left = state.tombstones.count - limit + 1
            forgetTombstones(in: &state) { _ in
                left -= 1
                return left >= 0
            }
        }
        if state.tombstones.updateValue(until, forKey: id) == nil {
            state.buried.append(id)
        }
    }

    /// Forgets the oldest tombstones while `shouldForget` says so of their expiry time.
    private static func forgetTombstones(in state: inout State, while shouldForget: (UInt64) -> Bool) {
        while state.buriedHead < state.buried.count {
            let id = state.buried[state.buriedHead]
            guard let until = state.tombstones[id] else {
                state.buriedHead += 1
                continue
            }
            guard shouldForget(until) else { break }
            state.tombstones[id] = nil
            state.buriedHead += 1
        }
        // Compact once the forgotten ids are as many as the kept ones.
        if state.buriedHead > 0, state.buriedHead * 2 >= state.buried.count {
            state.buried.removeFirst(state.buriedHead)
            state.buriedHead = 0
        }
    }
}
