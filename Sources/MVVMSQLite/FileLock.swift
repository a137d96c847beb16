#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a file beside the state file (`flock`), held while a store is open, so
/// that a second server on the same state file is refused instead of both writing. The kernel
/// releases it when the process ends, however it ends.
final class FileLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, or throws when another process holds it.
    init(path: String, storePath: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StateStoreError(path: storePath, problem: "its lock file \(path) cannot be opened (errno \(errno))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw StateStoreError(path: storePath, problem: "another server is using it (its lock file \(path) is held)")
        }
        self.descriptor = descriptor
    }

    /// Releases the lock.
    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
