import Foundation
import Logging
import MVVMJSON

/// A ``ViewModelContext`` behind an actor: its view models run one call at a time on this
/// actor (the role of UIKit's main thread), while different contexts run in parallel.
///
/// Published documents are read without entering the actor, through ``board`` and ``events``.
/// Its executor (a ``ContextExecutor``) also lets the HTTP runtime run a synchronous call on
/// the thread that read the request when the context is idle (``runIfIdle(_:)``).
package actor ContextActor {
    /// The context's identifier.
    package nonisolated let id: String
    /// The published documents, readable from any thread.
    package nonisolated let board: PublicationBoard
    /// The recent events, readable from any thread.
    package nonisolated let events: EventLog
    /// The scenes of the context's app.
    package nonisolated let catalogue: SceneCatalogue
    private let context: ViewModelContext
    /// The actor's executor, and the one its loads, actions and tasks prefer for their
    /// nonisolated code: a view model's code runs one job at a time, on this actor or beside
    /// none of its calls.
    private nonisolated let executor: ContextExecutor
    /// The session's own clock, in testing mode: what its work waits on.
    private nonisolated let clock: ManualClock?
    /// The loads, actions and tasks running, and who waits for them to end.
    let settling = SettleTracker()

    /// The actor's executor: jobs run on the global queue, one at a time.
    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Makes a context; `root` (when given) is put on its navigation stack, and its view model
    /// starts loading. Versions start from `firstVersion` (a restored session's). `logger` is
    /// made the first time a view model of the context logs. Writes of saved state are told to
    /// `unsavedStateWarning`, when given. With a `meter` (testing mode), the context's busy
    /// spells and the jobs of its tasks are counted there; with a `clock` (testing mode), its
    /// loads, actions and tasks wait on that clock through ``SessionRoutedClock``.
    package init(
        id: String, catalogue: SceneCatalogue, dependencies: DependencyValues,
        logger: @escaping @autoclosure @Sendable () -> Logger = ViewModelContext.defaultLogger, eventCapacity: Int = 256,
        navigationDocument: @escaping @Sendable (NavigationState) -> Data = NavigationState.encodedDocument, firstVersion: UInt64 = 0,
        unsavedStateWarning: UnsavedStateWarning? = nil, meter: WorkMeter? = nil, clock: ManualClock? = nil
    ) {
        executor = ContextExecutor(meter: meter)
        self.clock = clock
        let context = ViewModelContext(
            id: id, catalogue: catalogue, dependencies: dependencies, logger: logger(), eventCapacity: eventCapacity,
            navigationDocument: navigationDocument, firstVersion: firstVersion)
        if let unsavedStateWarning {
            let store = context.store
            store.savedValueWritten = { [unowned store] key in
                unsavedStateWarning.noteWrite(scene: store.entry(key)?.scene ?? key)
            }
        }
        self.id = id
        self.catalogue = catalogue
        board = context.board
        events = context.events
        self.context = context
        // Unowned, not weak: the actor owns the context, which owns this closure and calls it
        // only from the actor's own calls; a weak reference would give the actor a side table
        // and put every retain of it on the slow path.
        context.startLoading = { [unowned self] key in
            assumeIsolated { $0.startLoad(key) }
        }
        context.startTask = { [unowned self] key, operation in
            assumeIsolated { $0.startTask(key, operation) }
        }
    }

    /// Runs a task of the view model under a key as a task that prefers this actor's executor,
    /// tracked by the store (cancelled when the view model is cleared); its changes are
    /// published when it ends.
    private func startTask(_ key: String, _ task: ContextTask) {
        settling.begin()
        let number = context.store.nextTaskNumber()
        let running = Task(executorPreference: executor) { await self.onSessionClock { await self.runTask(key, number, task) } }
        context.store.track(running, number: number, key: key)
    }

    private func runTask(_ key: String, _ number: UInt64, _ task: ContextTask) async {
        defer {
            context.store.taskEnded(number, key: key)
            workEnded()
        }
        await task.operation()
        context.store.refresh(key)
        context.flushRefreshes()
    }

    /// Runs `body` with the session's clock as the one its work waits on (``SessionRoutedClock``),
    /// in testing mode; otherwise just runs it.
    private nonisolated func onSessionClock<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        guard let clock else { return try await body() }
        return try await SessionRoutedClock.$session.withValue(clock, operation: body)
    }

    /// Loads a scene's view model as a task that prefers this actor's executor: its first job
    /// runs in the actor's queue and enters the actor with the next.
    private func startLoad(_ key: String) {
        settling.begin()
        let number = context.store.nextTaskNumber()
        let task = Task(executorPreference: executor) { await self.onSessionClock { await self.load(key, number) } }
        context.store.track(task, number: number, key: key)
    }

    private func load(_ key: String, _ number: UInt64) async {
        defer {
            context.store.taskEnded(number, key: key)
            workEnded()
        }
        // The loading state is published only when the load suspends: this call, queued behind
        // the job running now, runs when that job ends, which is at the load's first suspension
        // or after the whole load (and then finds the loaded state already published).
        _ = runOrQueue { actor in actor.context.store.publishLifecycle(key) }
        await context.store.load(key, publishingLoadingState: false)
        context.flushRefreshes()
    }

    /// Shows the catalogue's root scene as the root of the navigation.
    package func showRoot() throws {
        try context.navigator.setRoot(catalogue.rootKey)
    }

    /// The published state of a scene, making its view model on first use.
    package func state(of key: String) throws -> PublicationBoard.Document {
        state(of: try context.entry(forKey: key))
    }

    /// The published state of a scene whose view model is in the store; `nil` when there is none
    /// (nothing is made).
    package func existingState(of key: String) -> PublicationBoard.Document? {
        context.store.entry(key).map { state(of: $0) }
    }

    /// The state of an entry at its version: the published document when it is that version (its
    /// prepared response is shared; versions come from the context's one counter, so an entry
    /// made again under the key never matches its predecessor's), else a document of its own.
    private func state(of entry: StoreEntry) -> PublicationBoard.Document {
        if let published = board.document(.scene(entry.key)), published.version == entry.version { return published }
        return PublicationBoard.Document(version: entry.version, body: entry.document)
    }

    /// Merges input members into a scene's input; returns its new state.
    package func setInput(_ patch: InputPatch, key: String) throws -> PublicationBoard.Document {
        state(of: try context.setInput(patch, key: key))
    }

    /// Performs an action of a scene; returns its new state and whether the navigation changed.
    package func perform(action: String, arguments: [String: JSONValue], key: String) async throws -> (
        state: PublicationBoard.Document, navigated: Bool
    ) {
        settling.begin()
        defer { workEnded() }
        let before = context.navigator.state.version
        let entry = try context.entry(forKey: key)
        try await withTaskExecutorPreference(executor) {
            try await onSessionClock { try await context.perform(action: action, arguments: arguments, key: key) }
        }
        let navigated = context.navigator.state.version != before
        // The entry held from before the action: an action may remove its own scene (an alert
        // that dismisses itself), and its last state is the answer, not a fresh view model's.
        return (state(of: entry), navigated)
    }

    /// Goes back: dismisses the modal, or pops the stack.
    package func back() throws {
        try context.navigator.back()
        context.flushRefreshes()
    }

    /// Clears the store: every view model unloads and leaves; the next read makes fresh ones.
    package func clearStore() {
        context.forgetPendingRestore()
        context.store.clear()
    }

    /// The context as it is to be saved now (see
    /// ``ViewModelContext/savedSession(createdAt:lastUsed:complete:)``).
    package func savedSession(createdAt: Int64, lastUsed: Int64, complete: Bool) -> SavedSession {
        context.savedSession(createdAt: createdAt, lastUsed: lastUsed, complete: complete)
    }

    /// Serves a saved session again (see ``ViewModelContext/restore(_:)``).
    package func restore(_ saved: SavedSession) {
        context.restore(saved)
    }

    /// Keeps this actor once the current call ends, until ``endHold(_:)``: no other call runs on
    /// it meanwhile (they wait), and no thread is held. For a change that is being saved.
    package func holdAfterThisCall() {
        executor.holdAfterCurrentCall()
    }

    /// Ends a hold of ``holdAfterThisCall()``: `body` runs as this actor's next call (on the
    /// calling thread, or on the held call's when that has not returned yet), then the calls
    /// that waited run.
    package nonisolated func endHold(_ body: @escaping @Sendable (isolated ContextActor) -> Void) {
        executor.endHold { self.assumeIsolated(body) }
    }

    /// Puts back the view models and navigation a change altered, as `committed` holds them,
    /// after the change could not be saved (see ``ViewModelContext/revert(_:to:)``).
    package func revert(_ failed: SavedSession, to committed: SavedSession) {
        context.revert(failed, to: committed)
    }

    /// Ends the context: unloads every view model and wakes every waiter.
    package func close() {
        context.close()
    }

    /// The navigation and the store's entries.
    package func summary() -> ContextSummary {
        ContextSummary(
            id: id,
            navigation: context.navigator.state,
            entries: context.store.allEntries.map { .init(key: $0.key, scene: $0.scene, lifecycle: $0.lifecycle.state, version: $0.version) })
    }

    /// Runs a synchronous body on this actor: several calls of the actor as one, with no
    /// suspension between them.
    package func run<Result: Sendable>(_ body: @Sendable (isolated ContextActor) throws -> Result) rethrows -> Result {
        try body(self)
    }

    /// Runs a synchronous body on this actor on the calling thread, at once, when no other call
    /// is running on it; returns `nil` without running it otherwise (the caller then enters
    /// the actor as usual, with ``run(_:)``). Tasks the body started on the actor (a view
    /// model's load) run on the calling thread too, before this returns, until they suspend.
    package nonisolated func runIfIdle<Result: Sendable>(_ body: (isolated ContextActor) throws -> Result) rethrows -> Result? {
        try executor.runIfIdle { try assumeIsolated(body) }
    }

    /// Runs a synchronous body on this actor on the calling thread, at once, when no other call
    /// is running on it (as ``runIfIdle(_:)``), and returns `true`; otherwise queues it and
    /// returns `false`: it runs after the work waiting before it, on the thread that ends the
    /// call running now (or on the global queue, behind a task's job), with no task made for it.
    package nonisolated func runOrQueue(_ body: @escaping @Sendable (isolated ContextActor) -> Void) -> Bool {
        executor.runOrQueue { self.assumeIsolated(body) }
    }

    /// Whether the calling thread is running this actor's work now: one of its calls, or a job
    /// of a task that prefers its executor (for tests).
    package nonisolated var isRunningOnCallingThread: Bool {
        executor.isIsolatingCurrentContext()
    }

    /// How many jobs and queued calls wait for this actor (for tests).
    package nonisolated var waitingWorkCount: Int {
        executor.waitingWorkCount
    }

    /// Runs code with the context on its actor (for tests and advanced uses).
    package func withContext<Result: Sendable>(_ body: (ViewModelContext) throws -> Result) rethrows -> Result {
        try body(context)
    }
}

/// What a context holds: its navigation and the entries of its store.
package struct ContextSummary: Sendable, Encodable {
    /// One entry of the store.
    package struct Entry: Sendable, Encodable, Equatable {
        /// The key.
        package let key: String
        /// The scene's name.
        package let scene: String
        /// The lifecycle state.
        package let lifecycle: Lifecycle.State
        /// The version of its state.
        package let version: UInt64
    }

    /// The context's identifier.
    package let id: String
    /// The navigation.
    package let navigation: NavigationState
    /// The store's entries.
    package let entries: [Entry]
}
