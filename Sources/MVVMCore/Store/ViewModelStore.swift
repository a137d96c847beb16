import Foundation
import MVVMJSON

// Exclusivity of its fields is not checked at run time (@exclusivity(unchecked)): a store is
// used only on its context's isolation, one call at a time, and no access to a field spans a
// call that could reach the same field (the observer is read, then called; collections are
// mutated in place by their own methods only, with closures that do not touch the store).
/// The view models of one context, cached by key (the seed's and AndroidX's `ViewModelStore`).
///
/// - Getting a key again returns the cached instance; get-or-create is atomic because the
///   store is only used from its context's isolation, one call at a time.
/// - Asking for another type under a key that holds a view model is an error.
/// - ``clear()`` unloads every view model, then empties the store. For each view model, in
///   this order: `willUnload`; its running tasks are cancelled; its resources are closed;
///   its `onCleared()` runs; `didUnload`. A resource added after that is closed at once.
/// - After each call into a view model, ``refresh(_:)`` encodes its state; a change of the
///   encoded bytes takes a new version from the context's counter and is reported to the
///   observer, with one `didUpdate` event when the output changed and the view model is
///   loaded (the lifecycle allows updates only then: what a load changed comes right after
///   `didLoad`).
package final class ViewModelStore {
    /// What the store reports to its owner.
    package enum Change {
        /// A lifecycle event of the view model under a key.
        case event(key: String, LifecycleEvent)
        /// A new version of an entry's state.
        case published(StoreEntry)
        /// The entry left the store.
        case removed(StoreEntry)
    }

    /// Receives every change, synchronously, in order.
    @exclusivity(unchecked) package var observer: ((Change) -> Void)?
    /// Told of every write to a view model's saved values, with its key.
    @exclusivity(unchecked) package var savedValueWritten: ((_ key: String) -> Void)?
    /// The context's version counter.
    package let counter: VersionCounter
    @exclusivity(unchecked) private var entries: [String: StoreEntry] = [:]
    /// False while ``clear(publishing:)`` unloads without publishing.
    @exclusivity(unchecked) private var isPublishing = true
    @exclusivity(unchecked) private var order: [String] = []
    /// The number the last task kept was given (``nextTaskNumber()``).
    @exclusivity(unchecked) var lastTaskNumber: UInt64 = 0
    /// The values each view model saved (``SavedStateHandle``), as JSON, by key and name.
    @exclusivity(unchecked) var saved: [String: [String: [UInt8]]] = [:]
    /// The keys whose input or saved values changed since ``takeUnsavedChanges()``.
    @exclusivity(unchecked) var unsavedKeys: Set<String> = []
    /// The keys whose saved values changed since ``takeUnsavedChanges()``.
    @exclusivity(unchecked) var unsavedValueKeys: Set<String> = []
    /// The keys that left the store since ``takeUnsavedChanges()``.
    @exclusivity(unchecked) var removedKeys: Set<String> = []

    /// Makes an empty store.
    package convenience init() {
        self.init(counter: VersionCounter())
    }

    /// Makes an empty store that takes versions from `counter`.
    package init(counter: VersionCounter) {
        self.counter = counter
    }

    /// The keys in the order their view models were made.
    package var keys: [String] {
        order
    }

    /// The entry under a key.
    package func entry(_ key: String) -> StoreEntry? {
        entries[key]
    }

    /// All entries, in the order they were made.
    package var allEntries: [StoreEntry] {
        order.compactMap { entries[$0] }
    }

    /// The view model under `key`, made by `factory` when the key is new, and set up.
    /// - Throws: ``ViewModelStoreError`` when the key holds another type or no factory makes `type`.
    package func get<Model: ViewModel>(
        _ type: Model.Type = Model.self, key: String, scene: String? = nil, factory: some ViewModelFactory, extras: CreationExtras? = nil
    ) throws -> Model {
        if let existing = entries[key] {
            guard let model = existing.viewModel.object as? Model else {
                throw ViewModelStoreError.typeMismatch(key: key, stored: existing.typeName, requested: String(reflecting: Model.self))
            }
            return model
        }
        var extras = extras ?? CreationExtras(key: key)
        extras.madeScope = ViewModelScope(key: key, store: self, context: extras.context, resourcesWhileMade: extras.resources)
        let made: Model?
        do {
            made = try factory.create(type, extras: extras)
        } catch {
            extras.resources.items.forEach { $0.close() }
            throw error
        }
        guard let model = made else {
            extras.resources.items.forEach { $0.close() }
            throw ViewModelStoreError.noFactory(type: String(reflecting: Model.self), key: key)
        }
        let entry = StoreEntry(key: key, scene: scene ?? key, viewModel: ViewModelBox(model))
        entry.resources = extras.resources.items
        entries[key] = entry
        order.append(key)
        unsavedKeys.insert(key)
        unsavedValueKeys.insert(key)
        transition(entry, .setup)
        return model
    }

    /// The view model under a key, when there is one of this type.
    package func existing<Model: ViewModel>(_ type: Model.Type = Model.self, key: String) -> Model? {
        entries[key]?.viewModel.object as? Model
    }

    /// Runs the view model's `load()` once: lifecycle loading, then loaded. When the view
    /// model is unloaded meanwhile, the load is cancelled and `didLoad` never comes. An error
    /// thrown by the load is kept in the entry's ``StoreEntry/error`` and the output stays valid.
    ///
    /// With `publishingLoadingState` false, the loading state is not published when the load
    /// starts (its `willLoad` event still is): the caller publishes it with
    /// ``publishLifecycle(_:)`` once the load has suspended, so that a load that finishes
    /// without suspending publishes one version, the loaded one.
    package func load(_ key: String, publishingLoadingState: Bool = true) async {
        guard let entry = entries[key], entry.lifecycle.state == .setuped else { return }
        transition(entry, .startLoading, publishing: publishingLoadingState)
        do {
            try await entry.viewModel.load()
            entry.error = nil
        } catch is CancellationError {
        } catch {
            entry.error = String(describing: error)
        }
        guard !entry.isCleared, !Task.isCancelled, entry.lifecycle.state == .loading else { return }
        transition(entry, .finishLoading)
    }

    /// Merges input members into the view model's input and publishes the result.
    /// - Throws: ``InputError`` naming the member at fault; nothing changes then.
    package func setInput(_ patch: InputPatch, key: String) throws {
        guard let entry = entries[key] else { throw ViewModelStoreError.unknownKey(key) }
        try setInput(patch, of: entry)
    }

    /// ``setInput(_:key:)`` for an entry of this store already in hand.
    func setInput(_ patch: InputPatch, of entry: StoreEntry) throws {
        try entry.viewModel.mergeInput(patch, current: entry.encodedInput)
        refresh(entry)
    }

    /// Performs an action by name with JSON arguments and publishes the result.
    /// - Throws: ``ActionError`` for an unknown action or bad arguments, and the view model's
    ///   ``Refusal``: nothing is published then. Other errors the view model throws are kept in
    ///   the entry's error (its output stays valid), published and rethrown.
    package func perform(action: String, arguments: [String: JSONValue], key: String) async throws {
        guard let entry = entries[key] else { throw ViewModelStoreError.unknownKey(key) }
        do {
            try await entry.viewModel.perform(action: action, arguments: arguments)
            if entry.lifecycle.state == .loaded { entry.error = nil }
        } catch let error where error is ActionError || error is Refusal {
            throw error
        } catch {
            entry.error = String(describing: error)
            refresh(entry)
            throw error
        }
        refresh(entry)
    }

    /// Encodes the state of the view model under a key and publishes it when it changed.
    package func refresh(_ key: String) {
        if let entry = entries[key] { refresh(entry) }
    }

    /// Publishes the view model under a key when its lifecycle state is not published yet (a
    /// load started without publishing its loading state); does nothing otherwise, without
    /// encoding anything.
    package func publishLifecycle(_ key: String) {
        guard let entry = entries[key], entry.publishedLifecycle != entry.lifecycle.state else { return }
        refresh(entry)
    }

    /// Unloads and removes the view model under a key.
    package func remove(_ key: String) {
        saved[key] = nil
        unsavedKeys.remove(key)
        unsavedValueKeys.remove(key)
        removedKeys.insert(key)
        guard let entry = entries.removeValue(forKey: key) else { return }
        order.removeAll { $0 == key }
        unload(entry)
        observer?(.removed(entry))
    }

    /// Unloads and removes every view model, in the order they were made (AndroidX's
    /// `ViewModelStore.clear()`).
    package func clear() {
        clear(publishing: true)
    }

    /// Unloads and removes every view model, in the order they were made. With `publishing`
    /// false (the context is ending and nobody can read its states any more), the unloading
    /// states are not encoded nor published; lifecycle events are still recorded.
    package func clear(publishing: Bool) {
        isPublishing = publishing
        defer { isPublishing = true }
        let cleared = allEntries
        removedKeys.formUnion(entries.keys)
        unsavedKeys.removeAll()
        unsavedValueKeys.removeAll()
        entries.removeAll()
        saved.removeAll()
        order.removeAll()
        for entry in cleared {
            unload(entry)
            observer?(.removed(entry))
        }
    }

    private func unload(_ entry: StoreEntry) {
        transition(entry, .startUnloading)
        for task in entry.tasks.values { task.cancel() }
        entry.tasks.removeAll()
        let resources = entry.resources
        entry.resources.removeAll()
        entry.isCleared = true
        for resource in resources { resource.close() }
        entry.viewModel.onCleared()
        transition(entry, .finishUnloading)
    }

    private func transition(_ entry: StoreEntry, _ transition: Lifecycle.Transition, changes: [String] = [], publishing: Bool = true) {
        guard let event = try? entry.lifecycle.apply(transition, changes: changes) else { return }
        observer?(.event(key: entry.key, event))
        if publishing && transition != .update && !entry.isCleared { refresh(entry) }
    }

    private func refresh(_ entry: StoreEntry) {
        guard isPublishing, !entry.isCleared,
            let input = try? entry.viewModel.encodedInput(),
            let output = try? entry.viewModel.encodedOutput()
        else { return }
        let snapshot = entry.viewModel.snapshot
        let outputChanged = output != entry.encodedOutput
        let snapshotChanged = snapshot != nil && snapshot != entry.snapshot
        let changed =
            outputChanged || snapshotChanged || input != entry.encodedInput
            || entry.publishedLifecycle != entry.lifecycle.state || entry.publishedError != .some(entry.error)
        guard changed else { return }
        let changedMembers = outputChanged && entry.version > 0 ? OutputChanges.members(from: entry.encodedOutput, to: output) : []
        entry.version = counter.next()
        if input != entry.encodedInput { unsavedKeys.insert(entry.key) }
        entry.encodedInput = input
        entry.encodedOutput = output
        entry.publishedLifecycle = entry.lifecycle.state
        entry.publishedError = .some(entry.error)
        if let snapshot, snapshotChanged {
            entry.snapshot = snapshot
            entry.snapshotVersion = entry.version
        }
        entry.document = StateDocument.encode(entry: entry, input: input, output: output.bytes)
        if !changedMembers.isEmpty {
            transition(entry, .update, changes: changedMembers)
        }
        observer?(.published(entry))
    }
}
