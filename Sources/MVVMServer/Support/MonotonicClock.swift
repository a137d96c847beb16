import Foundation

/// Milliseconds of the monotonic clock, as one integer: what session idle times, tombstones and
/// request arrival times are measured in.
enum MonotonicClock {
    /// Milliseconds since an arbitrary fixed point (the system's boot).
    static var milliseconds: UInt64 {
        DispatchTime.now().uptimeNanoseconds / 1_000_000
    }
}
