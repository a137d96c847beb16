/// The versions of a scene's state as they come (``SceneClient/updates(wait:)``): the current
/// one first, then each newer one, read by long-polling. Ends by throwing the server's problem
/// (`session-gone` when the session is deleted); a task that is cancelled stops reading.
public struct SceneUpdates<Input: Codable & Sendable, Output: Decodable & Sendable>: AsyncSequence, Sendable {
    /// One version of the state.
    public typealias Element = SceneState<Input, Output>

    let scene: SceneClient<Input, Output>
    let wait: Duration

    /// Reads the versions.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let scene: SceneClient<Input, Output>
        let wait: Duration
        var last: UInt64?

        /// The next version: at once for the first, otherwise once the server has a newer one.
        public mutating func next() async throws -> SceneState<Input, Output>? {
            try Task.checkCancellation()
            guard let last else {
                let state = try await scene.state()
                self.last = state.version
                return state
            }
            while true {
                let state = try await scene.next(after: last, wait: wait)
                try Task.checkCancellation()
                if state.version != last {
                    self.last = state.version
                    return state
                }
            }
        }
    }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(scene: scene, wait: wait, last: nil)
    }
}
