import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The allocator settings of the server process.
enum AllocatorTuning {
    /// The bytes of freed memory that all of tcmalloc's per-thread caches may hold together
    /// (tcmalloc's own default is 32 MiB).
    static let threadCacheBytes = 4 << 20

    /// Caps tcmalloc's per-thread caches at ``threadCacheBytes`` when the process allocates with
    /// tcmalloc (the release build on Linux) and `TCMALLOC_MAX_TOTAL_THREAD_CACHE_BYTES` does not
    /// set the cap already; writes a warning to standard error when tcmalloc refuses it. Does
    /// nothing otherwise.
    static func apply() {
        #if canImport(Glibc)
            guard getenv("TCMALLOC_MAX_TOTAL_THREAD_CACHE_BYTES") == nil,
                let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "MallocExtension_SetNumericProperty")
            else {
                return
            }
            typealias SetNumericProperty = @convention(c) (UnsafePointer<CChar>, Int) -> Int32
            let setProperty = unsafeBitCast(symbol, to: SetNumericProperty.self)
            // tcmalloc answers 0 for a property it does not know: the cap is then not set, which
            // costs memory but nothing else, so the server says so and goes on.
            if setProperty("tcmalloc.max_total_thread_cache_bytes", threadCacheBytes) == 0 {
                FileHandle.standardError.write(
                    Data("warning: tcmalloc refused tcmalloc.max_total_thread_cache_bytes; its per-thread caches keep their default cap\n".utf8))
            }
        #endif
    }
}
