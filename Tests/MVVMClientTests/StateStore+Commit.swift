import MVVMCore

extension StateStore {
    /// Commits `changes` and returns once they are committed; throws what the commit failed with.
    func commit(_ changes: [SessionChange]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            commit(changes) { continuation.resume(with: $0) }
        }
    }
}
