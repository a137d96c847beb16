#if canImport(Glibc)
    import Glibc
#endif

/// Gives memory freed after a burst (thousands of answered long-polls, deleted sessions) back
/// to the system. Allocators keep freed blocks for reuse, so without this the resident size
/// stays at its peak long after the load is gone.
///
/// The release server allocates with tcmalloc (`Package.swift`), whose C API releases its free
/// pages; other builds use glibc's malloc, whose `malloc_trim` does the same.
enum MemoryTrim {
    private enum Release {
        case tcmalloc(@convention(c) () -> Void)
        case glibc(@convention(c) (Int) -> Int32)
    }

    /// The allocator's release call, looked up once (neither is in a module Swift imports).
    private static let release: Release? = {
        #if canImport(Glibc)
            let everywhere = UnsafeMutableRawPointer(bitPattern: 0)
            if let symbol = dlsym(everywhere, "MallocExtension_ReleaseFreeMemory") {
                return .tcmalloc(unsafeBitCast(symbol, to: (@convention(c) () -> Void).self))
            }
            if let symbol = dlsym(everywhere, "malloc_trim") {
                return .glibc(unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self))
            }
        #endif
        return nil
    }()

    /// Returns the allocator's free memory to the system.
    static func now() {
        switch release {
        case .tcmalloc(let releaseFreeMemory): releaseFreeMemory()
        case .glibc(let trim): _ = trim(0)
        case nil: break
        }
    }
}
