import Foundation

/// A key under which each thread keeps one object of its own, retained until the thread ends.
/// Not generic, so that a call from another module looks no type up at run time; a caller
/// reads the object back with `Unmanaged.fromOpaque`.
package final class ThreadLocalObject: Sendable {
    private let key: pthread_key_t

    /// A new key, under which no thread keeps anything yet.
    package init() {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
        self.key = key
    }

    /// The address of the calling thread's object, if it keeps one.
    package var address: UnsafeMutableRawPointer? {
        pthread_getspecific(key)
    }

    /// Keeps `object` for the calling thread (once: a thread's object is never replaced) and
    /// returns its address.
    package func keep(_ object: AnyObject) -> UnsafeMutableRawPointer {
        // Released by the key's destructor when the thread ends.
        let address = Unmanaged.passRetained(object).toOpaque()
        pthread_setspecific(key, address)
        return address
    }
}
