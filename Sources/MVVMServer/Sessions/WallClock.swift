import Foundation

/// The wall clock, for what is saved across restarts (a session's creation and last use): the
/// monotonic clock restarts with the process.
enum WallClock {
    /// Milliseconds since 1970.
    static var milliseconds: Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }
}
