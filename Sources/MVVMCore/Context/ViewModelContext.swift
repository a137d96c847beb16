import Foundation
import Logging
import MVVMJSON

/// The owner of a set of view models: what a UIViewController is to its view models, here one
/// per HTTP session. It owns a ``ViewModelStore`` and a ``Navigator``, makes view models of its
/// app's scenes by key, and publishes their encoded state on its ``PublicationBoard``.
///
/// A context is used from one isolation at a time (its ``ContextActor``). When the context
/// ends, ``close()`` unloads every view model and wakes every waiter; once the context is
/// released, everything it owned is released with it.
package final class ViewModelContext {
    /// The context's identifier.
    package let id: String
    /// The scenes it can show.
    package let catalogue: SceneCatalogue
    /// The services given to factories.
    package let dependencies: DependencyValues
    /// The counter every version and event number comes from.
    package let counter: VersionCounter
    /// The view models.
    package let store: ViewModelStore
    /// The navigation.
    package let navigator: Navigator
    /// The published documents and their waiters.
    package let board: PublicationBoard
    /// The recent events.
    package let events: EventLog
    /// Writes the navigation document the context publishes.
    private let navigationDocument: @Sendable (NavigationState) -> Data
    /// Called when a view model was made and should load; the owner runs the load as a task.
    package var startLoading: ((String) -> Void)?
    /// Called to start a task of the view model under a key on the owner's isolation
    /// (``ViewModelScope/launch(_:)``); without it, tasks are not run.
    var startTask: ((String, ContextTask) -> Void)?
    /// The logger of the context's view models (``ViewModelScope/logger``), made the first
    /// time one logs (most contexts never log, and making it can cost more than the context).
    package private(set) lazy var logger: Logger = makeLogger()
    private let makeLogger: () -> Logger
    /// The logger of view models whose context was given none.
    package static let defaultLogger = Logger(label: "mvvm")
    /// How many earlier snapshots each scene keeps, for differences since a version.
    package var snapshotHistoryLimit = 16
    private var keysNeedingRefresh: Set<String> = []
    /// The saved view models of a restored session that are not made again yet, by key: each is
    /// made on first use, with its saved input and values.
    var pendingRestore: [String: SavedSession.Entry] = [:]
    /// The order the saved view models of a restored session were made in.
    var pendingRestoreOrder: [String] = []
    /// The navigation's version when it was last saved (see ``savedSession(createdAt:lastUsed:complete:)``).
    var savedNavigationVersion: UInt64?

    /// Makes a context.
    /// `navigationDocument` writes the navigation as it is published (by default, its
    /// `Encodable` form).
    /// `firstVersion` is where versions and event numbers start from (a restored session's
    /// saved version, so that they never go backwards).
    package init(
        id: String, catalogue: SceneCatalogue, dependencies: DependencyValues = DependencyValues(),
        logger: @escaping @autoclosure () -> Logger = ViewModelContext.defaultLogger, eventCapacity: Int = 256,
        navigationDocument: @escaping @Sendable (NavigationState) -> Data = NavigationState.encodedDocument, firstVersion: UInt64 = 0
    ) {
        self.id = id
        makeLogger = logger
        self.catalogue = catalogue
        self.dependencies = dependencies
        self.navigationDocument = navigationDocument
        counter = VersionCounter(start: firstVersion)
        store = ViewModelStore(counter: counter)
        navigator = Navigator()
        board = PublicationBoard()
        events = EventLog(capacity: eventCapacity, start: firstVersion)
        navigator.context = self
        store.observer = { [unowned self] change in self.handle(change) }
        publishNavigation()
        ViewModelCensus.contextMade()
    }

    deinit {
        ViewModelCensus.contextReleased()
    }

    /// The entry under a key, making its view model through its scene's factory on first use
    /// (then it starts loading).
    /// - Throws: ``ViewModelStoreError/unknownKey(_:)`` when no scene has the key.
    @discardableResult
    package func entry(forKey key: String) throws -> StoreEntry {
        if let entry = store.entry(key) { return entry }
        guard let (scene, parameters) = catalogue.scene(forKey: key) else { throw ViewModelStoreError.unknownKey(key) }
        let saved = takePendingRestore(key, scene: scene.name)
        if let saved { store.restoreSavedValues(saved.values, of: key) }
        try scene.make(store, CreationExtras(key: key, parameters: parameters, context: self, dependencies: dependencies))
        guard let entry = store.entry(key) else { throw ViewModelStoreError.unknownKey(key) }
        if let saved, !restoreInput(saved, of: entry) {
            // The saved input no longer fits the app's types: the view model starts fresh.
            store.remove(key)
            try scene.make(store, CreationExtras(key: key, parameters: parameters, context: self, dependencies: dependencies))
        }
        guard let made = store.entry(key) else { throw ViewModelStoreError.unknownKey(key) }
        startLoading?(key)
        return made
    }

    /// The view model under a key, made on first use.
    package func viewModel<Model: ViewModel>(_ type: Model.Type = Model.self, key: String) throws -> Model {
        let entry = try entry(forKey: key)
        guard let model = store.existing(type, key: key) else {
            throw ViewModelStoreError.typeMismatch(key: key, stored: entry.typeName, requested: String(reflecting: type))
        }
        return model
    }

    /// Merges input members into a scene's input; returns the scene's entry.
    @discardableResult
    package func setInput(_ patch: InputPatch, key: String) throws -> StoreEntry {
        let entry = try entry(forKey: key)
        defer { flushRefreshes() }
        try store.setInput(patch, of: entry)
        return entry
    }

    /// Performs an action of a scene.
    package func perform(action: String, arguments: [String: JSONValue], key: String) async throws {
        try entry(forKey: key)
        defer { flushRefreshes() }
        try await store.perform(action: action, arguments: arguments, key: key)
    }

    /// Marks a view model whose output another one changed (a binding between view models);
    /// it is published when the current call ends.
    package func setNeedsRefresh(_ key: String) {
        keysNeedingRefresh.insert(key)
    }

    /// Publishes the view models marked by ``setNeedsRefresh(_:)``.
    package func flushRefreshes() {
        guard !keysNeedingRefresh.isEmpty else { return }
        let keys = keysNeedingRefresh
        keysNeedingRefresh.removeAll()
        for key in keys.sorted() { store.refresh(key) }
    }

    /// Ends the context: unloads and removes every view model, then wakes every waiter.
    package func close() {
        // The board closes anyway: what the view models publish while unloading is never read.
        store.clear(publishing: false)
        board.close()
    }

    func didNavigate(_ event: ContextEvent) {
        publishNavigation()
        record(event)
    }

    private func publishNavigation() {
        let state = navigator.state
        board.publish(.init(version: state.version, body: navigationDocument(state)), on: .navigation)
    }

    private func record(_ event: ContextEvent) {
        events.append(event)
        board.publish(.init(version: event.seq, body: Data()), on: .events)
    }

    private func handle(_ change: ViewModelStore.Change) {
        switch change {
        case .event(let key, let event):
            var changes: [String]?
            if case .didUpdate(let members) = event { changes = members }
            record(ContextEvent(seq: counter.next(), key: key, type: event.name, changes: changes))
        case .published(let entry):
            // The snapshot first: a reader woken by the new state finds the snapshot of that version.
            if let snapshot = entry.snapshot, entry.snapshotVersion == entry.version {
                board.publish(.init(version: entry.version, snapshot: snapshot), on: .snapshot(entry.key), keepingHistory: snapshotHistoryLimit)
            }
            board.publish(.init(version: entry.version, body: entry.document), on: .scene(entry.key))
        case .removed(let entry):
            board.remove(.scene(entry.key))
            board.remove(.snapshot(entry.key))
        }
    }
}

/// The JSON of a whole snapshot: `{"kind": "snapshot", "version", "sections"}`.
package struct SnapshotDocument: Sendable {
    /// Always `snapshot`, telling a whole snapshot from a list of changes.
    package let kind = "snapshot"
    /// The version.
    package let version: UInt64
    /// The sections.
    package let sections: [Snapshot.Section]

    /// Makes the document.
    package init(version: UInt64, sections: [Snapshot.Section]) {
        self.version = version
        self.sections = sections
    }

    /// The document as JSON, written directly (the bytes of ``jsonValue``'s serialization,
    /// without building its dictionaries).
    package var jsonData: Data {
        var writer = JSONBytesWriter(capacity: 512)
        writer.append(#"{"kind":"#)
        writer.writeString(kind)
        writer.append(#","sections":["#)
        writer.writeSeparated(count: sections.count) { $0.write(sections[$1]) }
        writer.append(#"],"version":"#)
        writer.writeInteger(version, negative: false)
        writer.append("}")
        return Data(writer.bytes)
    }

    /// The document as a JSON value (written without going through `Encodable`).
    package var jsonValue: JSONValue {
        .object([
            "kind": .string(kind),
            "version": .number(Double(version)),
            "sections": .array(sections.map(\.jsonValue)),
        ])
    }
}
