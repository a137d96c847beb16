import Foundation

/// Blocks the calling thread, checking `condition` every millisecond, until it holds or `limit`
/// has passed; returns whether it holds. For a server that stops, on a thread that may block.
@discardableResult
func blockUntil(atMost limit: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        usleep(1000)
    }
    return true
}
