import MVVMServer

/// The directory of usernames already taken: a fake of a remote service, which answers a check
/// after a delay of the app's clock (two seconds by default), so that a test moves time instead
/// of waiting.
struct UsernameDirectory: Sendable {
    let taken: Set<String>
    let delay: Duration
    let clock: any Clock<Duration>

    /// Whether `username` is free, answered once the delay has passed on the clock.
    /// - Throws: `CancellationError` when the check is cancelled meanwhile.
    func isAvailable(_ username: String) async throws -> Bool {
        try await clock.sleep(for: delay)
        return !taken.contains(username.lowercased())
    }
}

private enum UsernameDirectoryKey: DependencyKey {
    static let defaultValue = UsernameDirectory(taken: [], delay: .zero, clock: ContinuousClock())
}

extension DependencyValues {
    /// The directory of usernames taken.
    var usernames: UsernameDirectory {
        get { self[UsernameDirectoryKey.self] }
        set { self[UsernameDirectoryKey.self] = newValue }
    }
}
