#if canImport(Glibc)
import Glibc
#endif

/// Gives memory freed after a burst (thousands of answered long-polls, deleted sessions) back
/// to the system. glibc keeps freed blocks in its arenas, so without this the resident size
/// stays at its peak long after the load is gone.
enum MemoryTrim {
    private typealias Trim = @convention(c) (Int) -> Int32

    /// glibc's `malloc_trim`, looked up once (Swift's Glibc module does not import malloc.h).
    private static let trim: Trim? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
        #else
        return nil
        #endif
    }()

    /// Returns free memory at the top of the heap and free pages inside the arenas.
    static func now() {
        _ = trim?(0)
    }
}
