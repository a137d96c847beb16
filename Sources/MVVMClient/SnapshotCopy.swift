/// A local copy of a list scene's snapshot that follows the server's by applying the changes
/// that `?since=` answers: the client side of a diffable data source.
///
/// When the server no longer keeps the copy's version, it answers the whole snapshot, and the
/// copy takes it; changes that do not apply make the copy read the whole snapshot. Either way
/// the caller sees only the new snapshot.
public struct SnapshotCopy<Input: Codable & Sendable, Output: Decodable & Sendable>: Sendable {
    /// What an update did to the copy.
    public enum Update: Sendable, Equatable {
        /// Nothing changed (the wait ran out, or the changes were empty).
        case unchanged
        /// These changes were applied.
        case applied(SceneSnapshot.Changes)
        /// The whole snapshot replaced the copy.
        case replaced
    }

    /// The scene.
    public let scene: SceneClient<Input, Output>
    /// The copy.
    public private(set) var snapshot: SceneSnapshot

    init(scene: SceneClient<Input, Output>, snapshot: SceneSnapshot) {
        self.scene = scene
        self.snapshot = snapshot
    }

    /// Brings the copy up to date: reads the changes since its version (long-polling up to
    /// `wait` while there are none, when given) and applies them.
    @discardableResult
    public mutating func update(wait: Duration? = nil) async throws -> Update {
        switch try await scene.snapshotDocument(since: snapshot.version, wait: wait) {
        case .snapshot(let whole):
            let changed = whole != snapshot
            snapshot = whole
            return changed ? .replaced : .unchanged
        case .changes(let changes):
            guard !changes.isEmpty || changes.version != snapshot.version else { return .unchanged }
            do {
                snapshot = try snapshot.applying(changes)
                return changes.isEmpty ? .unchanged : .applied(changes)
            } catch is SceneClientError {
                snapshot = try await scene.snapshot()
                return .replaced
            }
        }
    }
}
