import Synchronization

extension Core {
    /// Weak references to objects a test wants to see deallocated (view models, coordinators,
    /// store entries), safe to fill on a context's actor and read from the test.
    final class WeakReferences: Sendable {
        /// Sendable because the object is only ever compared with `nil`, never used.
        private struct Reference: @unchecked Sendable {
            let name: String
            weak var object: AnyObject?
        }

        private let references = Mutex<[Reference]>([])

        /// Keeps a weak reference to `object` under a name for the failure message.
        func add(_ object: AnyObject, name: String) {
            references.withLock { $0.append(Reference(name: name, object: object)) }
        }

        /// How many references were added.
        var count: Int {
            references.withLock { $0.count }
        }

        /// The names of the objects still alive.
        var alive: [String] {
            references.withLock { $0.filter { $0.object != nil }.map(\.name) }
        }
    }
}
