import Synchronization

/// How many store entries (and so view models), and contexts, exist in the whole process: incremented when
/// one is made, decremented when it is deallocated. A context that ends and is released
/// brings the count back down; `/metrics` reports it.
package enum ViewModelCensus {
    private static let count = Atomic<Int>(0)
    private static let contexts = Atomic<Int>(0)

    /// Contexts (``ViewModelContext``) alive now: one per live session, and none once sessions
    /// end and are released.
    package static var liveContexts: Int {
        contexts.load(ordering: .relaxed)
    }

    static func contextMade() {
        contexts.add(1, ordering: .relaxed)
    }

    static func contextReleased() {
        contexts.subtract(1, ordering: .relaxed)
    }

    /// Entries alive now.
    package static var live: Int {
        count.load(ordering: .relaxed)
    }

    static func made() {
        count.add(1, ordering: .relaxed)
    }

    static func released() {
        count.subtract(1, ordering: .relaxed)
    }
}
