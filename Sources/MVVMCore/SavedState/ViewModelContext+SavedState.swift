import Foundation
import Logging
import MVVMJSON

/// Saving a context, and serving a saved one again after a restart.
extension ViewModelContext {
    /// The context as it is to be saved now: its navigation and the version it has reached,
    /// with every view model (those made, then the saved ones not made again yet) when
    /// `complete`, otherwise with those whose input or values changed, and the keys of those
    /// that left, since the last save. Either way, the next save starts from now.
    package func savedSession(createdAt: Int64, lastUsed: Int64, complete: Bool) -> SavedSession {
        let (changed, valuesChanged, removed) = store.takeUnsavedChanges()
        let allKeys = store.keys
        let keys = complete ? allKeys : changed
        // Positions by a scan of the store's keys: a save usually holds one changed view model.
        var entries = keys.enumerated().compactMap { index, key in
            store.entry(key).map { entry in
                SavedSession.Entry(
                    key: key, scene: entry.scene, input: entry.encodedInput, values: store.savedValues(of: key),
                    position: complete ? index : allKeys.firstIndex(of: key) ?? 0,
                    valuesChanged: complete || valuesChanged.contains(key))
            }
        }
        if complete { entries += pendingRestoreOrder.compactMap { pendingRestore[$0] } }
        var navigation: [UInt8]?
        if complete || navigator.state.version != savedNavigationVersion {
            navigation = SavedNavigation(navigator.state).bytes
            savedNavigationVersion = navigator.state.version
        }
        return SavedSession(
            id: id, createdAt: createdAt, lastUsed: lastUsed, version: counter.current,
            navigation: navigation, entries: entries,
            isComplete: complete, removedKeys: complete ? [] : removed)
    }

    /// Serves a saved session again: its navigation is shown as it was (which makes the view
    /// models shown, with their saved inputs and values), and the other saved view models are
    /// made on first use. Call it on a new context whose versions start from the saved one.
    package func restore(_ saved: SavedSession) {
        for entry in saved.entries where pendingRestore[entry.key] == nil { setPendingRestore(entry) }
        guard let navigation = saved.navigation.flatMap(SavedNavigation.init(bytes:)) else {
            logger.warning("The saved navigation no longer decodes; the session starts at its root scene.")
            try? navigator.setRoot(catalogue.rootKey)
            return
        }
        do {
            try navigation.replay(on: navigator)
        } catch {
            logger.warning("The saved navigation no longer fits the app (\(error)); the session starts at its root scene.")
            try? navigator.setRoot(catalogue.rootKey)
        }
    }

    /// Puts the context back as `committed` (the session as last saved) holds it, after the
    /// change saved as `failed` could not be: the view models that change wrote or removed
    /// (all, when it saved the whole session) leave, to be made again on first use from their saved input and values, and the saved
    /// navigation is put back (without making the view models it shows). What this publishes
    /// is meant to be dropped with the held change (``PublicationBoard/discardHeld()``).
    package func revert(_ failed: SavedSession, to committed: SavedSession) {
        var keys = Set(failed.entries.map(\.key) + failed.removedKeys)
        // A whole session's save names no removals: every key may have changed.
        if failed.isComplete { keys.formUnion(store.keys + pendingRestoreOrder + committed.entries.map(\.key)) }
        for key in store.keys where keys.contains(key) { store.remove(key) }
        for key in keys { pendingRestore[key] = nil }
        pendingRestoreOrder.removeAll { keys.contains($0) }
        for entry in committed.entries where keys.contains(entry.key) { setPendingRestore(entry) }
        if let changed = failed.navigation, changed != committed.navigation {
            if let state = committed.navigation.flatMap(SavedNavigation.init(bytes:))?.state(in: catalogue) {
                navigator.revert(to: state)
            } else {
                logger.warning("The saved navigation no longer fits the app; the navigation of a change that could not be saved stays.")
            }
        }
        _ = store.takeUnsavedChanges()
    }

    /// Keeps a saved view model to be made again on first use (after those kept before it).
    private func setPendingRestore(_ entry: SavedSession.Entry) {
        if pendingRestore.updateValue(entry, forKey: entry.key) == nil { pendingRestoreOrder.append(entry.key) }
    }

    /// The saved view model under `key`, taken for making it again; `nil` when there is none, or
    /// when it was saved for another scene (the app changed).
    func takePendingRestore(_ key: String, scene: String) -> SavedSession.Entry? {
        guard let saved = pendingRestore.removeValue(forKey: key) else { return nil }
        pendingRestoreOrder.removeAll { $0 == key }
        guard saved.scene == scene else {
            logger.warning("The saved view model '\(key)' belongs to scene '\(saved.scene)', not '\(scene)'; it starts fresh.")
            return nil
        }
        return saved
    }

    /// Gives a view model made again its saved input; `false` (and a warning) when the input no
    /// longer decodes as the view model's.
    func restoreInput(_ saved: SavedSession.Entry, of entry: StoreEntry) -> Bool {
        guard !saved.input.isEmpty else { return true }
        do {
            guard let members = JSONValue(json: Data(saved.input))?.objectValue else {
                throw InputError(member: "input", reason: "is not a JSON object")
            }
            try store.setInput(.members(members), of: entry)
            return true
        } catch {
            logger.warning("The saved input of '\(entry.key)' no longer decodes (\(error)); the view model starts fresh.")
            return false
        }
    }

    /// Forgets the saved view models not made again yet (the store was cleared): the next save
    /// removes them.
    func forgetPendingRestore() {
        store.markRemoved(pendingRestoreOrder)
        pendingRestore.removeAll()
        pendingRestoreOrder.removeAll()
    }
}
