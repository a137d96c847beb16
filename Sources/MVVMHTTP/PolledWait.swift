/// Waits, without holding a thread, until `condition` holds or `limit` has passed, checking it
/// every millisecond; returns whether it holds. For a server that stops: what it waits for
/// (connections completing on libmicrohttpd's threads) signals nothing it could await.
@discardableResult
func waitUntil(atMost limit: Duration, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        // Not cancellable: a stop that began goes to its end.
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}
