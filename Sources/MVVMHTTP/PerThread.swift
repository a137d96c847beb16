import MVVMSupport

/// One object per thread, made on a thread's first use and released when that thread ends:
/// state that only its own thread touches (a polling thread's queue of left work, its kept
/// answers), read without a lock.
final class PerThread<Object: AnyObject>: Sendable {
    private let objects = ThreadLocalObject()

    /// The calling thread's object, if it has made one.
    var existing: Object? {
        objects.address.map { Unmanaged<Object>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The calling thread's object, made by `make` on first use.
    func current(orMake make: () -> Object) -> Object {
        if let object = existing { return object }
        let object = make()
        _ = objects.keep(object)
        return object
    }
}
