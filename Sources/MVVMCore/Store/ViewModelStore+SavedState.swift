import Foundation

/// What the store keeps for saving its context's session (``SavedStateHandle``): the values
/// each view model saved, and which keys changed or left since the last save.
extension ViewModelStore {
    /// The values the view model under `key` saved, as JSON by name.
    package func savedValues(of key: String) -> [String: [UInt8]] {
        saved[key] ?? [:]
    }

    /// Saves a value of the view model under `key` (`nil` removes it).
    package func setSavedValue(_ bytes: [UInt8]?, named name: String, of key: String) {
        saved[key, default: [:]][name] = bytes
        unsavedKeys.insert(key)
        unsavedValueKeys.insert(key)
        savedValueWritten?(key)
    }

    /// The keys whose input or saved values changed (and among them those whose values
    /// changed), and those that left the store, since the last call; the next call starts from now.
    package func takeUnsavedChanges() -> (changed: [String], valuesChanged: Set<String>, removed: [String]) {
        defer {
            unsavedKeys.removeAll()
            unsavedValueKeys.removeAll()
            removedKeys.removeAll()
        }
        return (keys.filter { unsavedKeys.contains($0) }, unsavedValueKeys, removedKeys.sorted())
    }

    /// Counts keys as left the store (saved view models of a restored session, forgotten).
    package func markRemoved(_ keys: some Sequence<String>) {
        removedKeys.formUnion(keys)
    }

    /// Gives the view model under `key` the values it saved before a restart, before it is made.
    package func restoreSavedValues(_ values: [String: [UInt8]], of key: String) {
        saved[key] = values.isEmpty ? nil : values
    }
}
