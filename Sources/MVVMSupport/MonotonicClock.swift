#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The monotonic clock as one integer: milliseconds for session idle times, tombstones and
/// request arrival times, nanoseconds for the time a logged request took.
package enum MonotonicClock {
    /// Milliseconds since an arbitrary fixed point (the system's boot), from the coarse
    /// monotonic clock: it is read on every request, and its resolution (a few milliseconds)
    /// is finer than anything measured with it (timeouts of seconds, idle times of minutes).
    package static var milliseconds: UInt64 {
        var time = timespec()
        clock_gettime(coarseClock, &time)
        return UInt64(time.tv_sec) * 1000 + UInt64(time.tv_nsec) / 1_000_000
    }

    /// Nanoseconds since the same point, from the fine monotonic clock: what a request's log
    /// line times it with. A plain integer, so that a request that is not timed carries an
    /// empty optional integer rather than an optional clock instant.
    package static var nanoseconds: UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// The coarse monotonic clock where the system has one (Linux), else the fine one.
#if os(Linux)
    private let coarseClock = CLOCK_MONOTONIC_COARSE
#else
    private let coarseClock = CLOCK_MONOTONIC
#endif
