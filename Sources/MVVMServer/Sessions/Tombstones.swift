/// The ids of deleted and expired sessions, each remembered until its expiry time, at most
/// `limit` of them: the oldest is forgotten first to make room.
///
/// An id is kept as its hash (the process's randomly seeded `Hasher`), not as a string: a
/// tombstone costs about 24 bytes, where a string id and its two places cost about 200. Two ids
/// share a tombstone only when their 64-bit hashes collide, which then answers 410 instead of
/// 404 for an id that never lived.
struct Tombstones {
    /// The expiry time of each buried id's hash.
    private var expiries: [Int: UInt64] = [:]
    /// The buried hashes in the order they were buried, as a ring whose slots double, up to
    /// `limit`, when they are all taken: every tombstone lasts as long, so the oldest is the
    /// first to expire and to go.
    private var ring: [Int] = []
    /// The ring's slot of the oldest buried hash.
    private var oldest = 0
    /// The hashes in the ring.
    private var buried = 0
    private let limit: Int

    /// At most `limit` tombstones (at least one).
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// How many ids are remembered.
    var count: Int { expiries.count }

    /// The expiry time of `id`'s tombstone, or `nil` when it has none.
    func expiry(of id: String) -> UInt64? {
        expiries[id.hashValue]
    }

    /// Remembers `id` until `until`, forgetting the oldest tombstone first when there are
    /// `limit` of them; a tombstone already there takes the new time and keeps its place.
    mutating func bury(_ id: String, until: UInt64) {
        let hash = id.hashValue
        if expiries.updateValue(until, forKey: hash) != nil { return }
        if buried == limit { forgetOldest() }
        if buried == ring.count { grow() }
        ring[(oldest + buried) % ring.count] = hash
        buried += 1
    }

    /// Forgets the oldest tombstones while `shouldForget` says so of their expiry time.
    mutating func forget(while shouldForget: (UInt64) -> Bool) {
        while buried > 0 {
            if let until = expiries[ring[oldest]], !shouldForget(until) { return }
            forgetOldest()
        }
    }

    /// Doubles the ring's slots (up to `limit`), the buried hashes first, oldest first.
    private mutating func grow() {
        let slots = min(limit, max(16, ring.count * 2))
        var grown = (0..<buried).map { ring[(oldest + $0) % ring.count] }
        grown.append(contentsOf: repeatElement(0, count: slots - buried))
        ring = grown
        oldest = 0
    }

    private mutating func forgetOldest() {
        expiries[ring[oldest]] = nil
        oldest = (oldest + 1) % ring.count
        buried -= 1
    }
}
