import Synchronization

/// How many store entries (and so view models) exist in the whole process: incremented when
/// one is made, decremented when it is deallocated. A context that ends and is released
/// brings the count back down; `/metrics` reports it.
public enum ViewModelCensus {
    private static let count = Atomic<Int>(0)

    /// Entries alive now.
    public static var live: Int {
        count.load(ordering: .relaxed)
    }

    static func made() {
        count.add(1, ordering: .relaxed)
    }

    static func released() {
        count.subtract(1, ordering: .relaxed)
    }
}
