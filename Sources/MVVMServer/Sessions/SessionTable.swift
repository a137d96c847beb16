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
        var tombstones: Tombstones
    }

    private let state: Mutex<State>
    private let tombstoneMilliseconds: UInt64

    init(tombstoneSeconds: Int = 600, maxTombstones: Int = 100_000) {
        tombstoneMilliseconds = UInt64(tombstoneSeconds) * 1000
        state = Mutex(State(tombstones: Tombstones(limit: maxTombstones)))
    }

    var count: Int {
        state.withLock { $0.sessions.count }
    }

    /// The session `id` names at `now`: live (its last use moved to `now` when `isUse`), gone
    /// while its tombstone lasts, else unknown.
    func lookup(_ id: String, now: UInt64, isUse: Bool = true) -> Lookup {
        state.withLock { state in
            if let session = state.sessions[id] {
                if isUse { session.touch(now) }
                return .live(session)
            }
            if let until = state.tombstones.expiry(of: id), until > now { return .gone }
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
            state.tombstones.bury(oldest.id, until: now + tombstoneMilliseconds)
            evicted = oldest
        }
        state.sessions[session.id] = session
        return .success(evicted)
    }

    /// Removes a session, leaving a tombstone.
    func remove(_ id: String, now: UInt64) -> Session? {
        state.withLock { state in
            guard let session = state.sessions.removeValue(forKey: id) else { return nil }
            state.tombstones.bury(id, until: now + tombstoneMilliseconds)
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

    /// Puts `new` in the place of `old` (the same id); `false` when `old` is no longer there.
    func replace(_ old: Session, with new: Session) -> Bool {
        state.withLock { state in
            guard state.sessions[old.id] === old else { return false }
            state.sessions[old.id] = new
            return true
        }
    }

    /// Removes the sessions idle for longer than `idleMilliseconds` with no parked request.
    func removeExpired(idleMilliseconds: UInt64, now: UInt64) -> [Session] {
        state.withLock { state in
            state.tombstones.forget { $0 <= now }
            let expired = state.sessions.values.filter {
                now > $0.lastUsed + idleMilliseconds && $0.parkedRequests.load(ordering: .relaxed) == 0
            }
            for session in expired {
                state.sessions[session.id] = nil
                state.tombstones.bury(session.id, until: now + tombstoneMilliseconds)
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
}
