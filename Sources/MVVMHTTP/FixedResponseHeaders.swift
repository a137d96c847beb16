import Synchronization

/// The header fields the server sends with every answer (its instance name, say): added a few
/// times before serving, read whenever an answer is turned into a native response, by every
/// polling thread, without a lock and without counting a reference to anything they share.
final class FixedResponseHeaders: Sendable {
    /// One version of the fields, never changed once made.
    private final class Fields: Sendable {
        let list: [(name: String, value: String)]

        init(_ list: [(name: String, value: String)]) {
            self.list = list
        }
    }

    /// The address of the current version, or 0 before the first field.
    private let current = Atomic<UInt>(0)
    /// Every version made, kept as long as this object: a reader may use the version it loaded
    /// without retaining it, even if a field is added meanwhile.
    private let versions = Mutex<[Fields]>([])

    /// No fields.
    init() {}

    /// Adds a field to every answer made from now on.
    func add(_ name: String, _ value: String) {
        versions.withLock { versions in
            let fields = Fields((versions.last?.list ?? []) + [(name, value)])
            versions.append(fields)
            current.store(UInt(bitPattern: Unmanaged.passUnretained(fields).toOpaque()), ordering: .releasing)
        }
    }

    /// Calls `body` with the current fields.
    func withFields<Result, Failure: Error>(_ body: ([(name: String, value: String)]) throws(Failure) -> Result) throws(Failure) -> Result {
        guard let address = UnsafeRawPointer(bitPattern: current.load(ordering: .acquiring)) else { return try body([]) }
        // Never released: every version stays in `versions`.
        return try body(Unmanaged<Fields>.fromOpaque(address).takeUnretainedValue().list)
    }
}
