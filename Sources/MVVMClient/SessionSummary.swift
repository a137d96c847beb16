/// A session as `GET /sessions/{id}` describes it: its navigation and the view models in its
/// store.
public struct SessionSummary: Sendable, Equatable {
    /// One view model in the store.
    public struct Entry: Sendable, Equatable {
        /// Its store key.
        public var key: String
        /// Its scene's name.
        public var scene: String
        /// Where it is in its lifecycle.
        public var lifecycle: SceneLifecycle
        /// The version of its state.
        public var version: UInt64
    }

    /// The navigation.
    public var navigation: SessionNavigation
    /// The view models in the store, in the order they were made.
    public var entries: [Entry]

    init(_ summary: Components.Schemas.SessionSummary) {
        navigation = SessionNavigation(summary.navigation)
        entries = summary.entries.map { entry in
            Entry(
                key: entry.key, scene: entry.scene, lifecycle: SceneLifecycle(rawValue: entry.lifecycle.rawValue) ?? .initialized,
                version: UInt64(clamping: entry.version))
        }
    }
}
