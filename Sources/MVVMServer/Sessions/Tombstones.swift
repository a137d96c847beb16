/// The ids of deleted and expired sessions, each remembered until its expiry time, at most
/// `limit` of them: the oldest is forgotten first to make room.
///
/// An id is kept as its hash (the process's randomly seeded `Hasher`), not as a string. Two ids
/// share a tombstone only when their 64-bit hashes collide, which then answers 410 instead of
/// 404 for an id that never lived. A tombstone costs about 26 bytes: its hash and expiry time in
/// a ring, and its ring slot in an index.
struct Tombstones {
    /// A buried id's hash and the time its tombstone expires.
    private struct Grave {
        var hash: Int
        var until: UInt64
    }

    /// The graves in the order they were buried, as a ring whose slots double, up to `limit`,
    /// when they are all taken: every tombstone lasts as long, so the oldest is the first to
    /// expire and to go.
    private var ring: [Grave] = []
    /// The ring's slot of the oldest grave.
    private var oldest = 0
    /// The graves in the ring.
    private var buried = 0
    /// The ring slot of each grave by its hash, open-addressed with linear probing: 0 is an empty
    /// place, any other value a ring slot plus one. Its places are a power of two, at least twice
    /// the ring's slots.
    private var index: [UInt32] = []
    private let limit: Int

    /// At most `limit` tombstones (at least one, at most `UInt32.max - 1`).
    init(limit: Int) {
        self.limit = min(max(1, limit), Int(UInt32.max) - 1)
    }

    /// How many ids are remembered.
    var count: Int { buried }

    /// The expiry time of `id`'s tombstone, or `nil` when it has none.
    func expiry(of id: String) -> UInt64? {
        let place = place(of: id.hashValue)
        return place.found ? ring[Int(index[place.position] - 1)].until : nil
    }

    /// Remembers `id` until `until`, forgetting the oldest tombstone first when there are
    /// `limit` of them; a tombstone already there takes the new time and keeps its place.
    mutating func bury(_ id: String, until: UInt64) {
        let hash = id.hashValue
        let existing = place(of: hash)
        if existing.found {
            ring[Int(index[existing.position] - 1)].until = until
            return
        }
        var free: Int? = existing.position
        if buried == limit {
            forgetOldest()
            free = nil
        }
        if buried == ring.count {
            grow()
            free = nil
        }
        let slot = (oldest + buried) % ring.count
        ring[slot] = Grave(hash: hash, until: until)
        // Forgetting and growing move places in the index: then the free place is looked up again.
        index[free ?? place(of: hash).position] = UInt32(slot + 1)
        buried += 1
    }

    /// Forgets the oldest tombstones while `shouldForget` says so of their expiry time.
    mutating func forget(while shouldForget: (UInt64) -> Bool) {
        while buried > 0, shouldForget(ring[oldest].until) {
            forgetOldest()
        }
    }

    /// The index's place holding `hash`'s slot (`found`), or else the empty place where it would go.
    private func place(of hash: Int) -> (position: Int, found: Bool) {
        guard !index.isEmpty else { return (0, false) }
        let mask = index.count - 1
        var position = hash & mask
        while index[position] != 0 {
            if ring[Int(index[position] - 1)].hash == hash { return (position, true) }
            position = (position + 1) & mask
        }
        return (position, false)
    }

    /// Doubles the ring's slots (up to `limit`), the graves first, oldest first, and indexes them
    /// again.
    private mutating func grow() {
        let slots = min(limit, max(16, ring.count * 2))
        var grown = (0..<buried).map { ring[(oldest + $0) % ring.count] }
        grown.append(contentsOf: repeatElement(Grave(hash: 0, until: 0), count: slots - buried))
        ring = grown
        oldest = 0
        var places = 32
        while places < 2 * slots { places *= 2 }
        index = Array(repeating: 0, count: places)
        for slot in 0..<buried {
            index[place(of: ring[slot].hash).position] = UInt32(slot + 1)
        }
    }

    private mutating func forgetOldest() {
        let mask = index.count - 1
        let slotValue = UInt32(oldest + 1)
        var hole = ring[oldest].hash & mask
        while index[hole] != slotValue { hole = (hole + 1) & mask }
        // Backward-shift deletion: each later grave of the same run moves into the hole when the
        // hole lies between its home place and where it stands, so that no search stops early.
        var next = (hole + 1) & mask
        while index[next] != 0 {
            let home = ring[Int(index[next] - 1)].hash & mask
            if (next &- home) & mask >= (next &- hole) & mask {
                index[hole] = index[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        index[hole] = 0
        oldest = (oldest + 1) % ring.count
        buried -= 1
    }
}
