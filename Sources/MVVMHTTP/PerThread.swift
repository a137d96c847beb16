import Foundation

/// One object per thread, made on a thread's first use and released when that thread ends:
/// state that only its own thread touches (a polling thread's queue of left work, its kept
/// answers), read without a lock.
final class PerThread<Object: AnyObject>: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
        self.key = key
    }

    /// The calling thread's object, if it has made one.
    var existing: Object? {
        pthread_getspecific(key).map { Unmanaged<Object>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The calling thread's object, made by `make` on first use.
    func current(orMake make: () -> Object) -> Object {
        if let object = existing { return object }
        let object = make()
        // Released by the key's destructor when the thread ends.
        pthread_setspecific(key, Unmanaged.passRetained(object).toOpaque())
        return object
    }
}
