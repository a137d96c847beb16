/// What is saved of one session, so that a restarted server can serve it again under the same
/// id: when it was made and last used, its navigation, the version it had reached, and for
/// each view model its key, scene, input and saved values. Outputs are not saved.
///
/// A save is complete (every view model) or a change of the previous save: the view models
/// whose input or values changed since, and the keys of those that left the store.
package struct SavedSession: Sendable, Equatable {
    /// One view model.
    package struct Entry: Sendable, Equatable {
        /// Its store key.
        package var key: String
        /// Its scene's name.
        package var scene: String
        /// Its input, as JSON.
        package var input: [UInt8]
        /// The values it saved, as JSON by name.
        package var values: [String: [UInt8]]
        /// Where it comes in the order the view models were made.
        package var position: Int
        /// Whether ``values`` changed since the previous save (when not, they are not written).
        package var valuesChanged: Bool

        /// Makes an entry.
        package init(key: String, scene: String, input: [UInt8], values: [String: [UInt8]], position: Int = 0, valuesChanged: Bool = true) {
            self.key = key
            self.scene = scene
            self.input = input
            self.values = values
            self.position = position
            self.valuesChanged = valuesChanged
        }
    }

    /// The session's id.
    package var id: String
    /// When it was made, in milliseconds since 1970.
    package var createdAt: Int64
    /// When it was last used, in milliseconds since 1970.
    package var lastUsed: Int64
    /// The highest version or event number it had given: a restored session numbers on from it.
    package var version: UInt64
    /// Its navigation, as ``SavedNavigation`` writes it; `nil` in a save of what changed when
    /// the navigation did not change (the saved one stays).
    package var navigation: [UInt8]?
    /// Its view models, in the order they were made: all of them when the save is complete,
    /// otherwise those changed since the previous save.
    package var entries: [Entry]
    /// Whether ``entries`` are all the view models (the previous save's are replaced).
    package var isComplete: Bool
    /// The keys of the view models that left the store since the previous save.
    package var removedKeys: [String]
    /// How many times a server took the session over (``StateStore/adopt(_:)``): it grows with
    /// each restore, and a server may write the session only while it holds the highest.
    package var fence: Int64 = 0

    /// Where a context made for this saved session starts numbering versions and events: after
    /// the saved version, and after every number a server holding a lower fence may have given
    /// without saving it (each fence has a range of 2^32 numbers of its own).
    package var firstVersion: UInt64 {
        max(version, UInt64(max(0, fence)) << 32)
    }

    /// Makes a saved session.
    package init(
        id: String, createdAt: Int64, lastUsed: Int64, version: UInt64, navigation: [UInt8]?, entries: [Entry],
        isComplete: Bool = true, removedKeys: [String] = []
    ) {
        self.id = id
        self.createdAt = createdAt
        self.lastUsed = lastUsed
        self.version = version
        self.navigation = navigation
        self.entries = entries
        self.isComplete = isComplete
        self.removedKeys = removedKeys
    }
}
