import Glibc

/// Milliseconds of the monotonic clock, as one integer: what session idle times, tombstones and
/// request arrival times are measured in.
enum MonotonicClock {
    /// Milliseconds since an arbitrary fixed point (the system's boot), from the coarse
    /// monotonic clock: it is read on every request, and its resolution (a few milliseconds)
    /// is finer than anything measured with it (timeouts of seconds, idle times of minutes).
    static var milliseconds: UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return UInt64(time.tv_sec) * 1000 + UInt64(time.tv_nsec) / 1_000_000
    }
}
