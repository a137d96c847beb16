/// Asks `condition` again and again, `interval` apart, until it holds or `timeout` has passed;
/// returns whether it held. For state that another thread or the server changes soon, but not
/// at a moment a test can await (a counter, a metric, an executor going idle).
public func eventually(within timeout: Duration = .seconds(5), every interval: Duration = .milliseconds(1), _ condition: () async throws -> Bool)
    async throws -> Bool
{
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try await Task.sleep(for: interval)
    }
}
