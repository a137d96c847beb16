import Logging

/// A view model's handle on its place in its context, in the spirit of AndroidX's
/// `viewModelScope`: its factory finds it in ``CreationExtras/scope`` and hands it to the view
/// model, which uses it to publish a change mid-load, to start tasks that are cancelled when it
/// is cleared, to reach the other view models of its context and their navigator, and to log.
///
/// Used on the context's isolation, as the view model itself is. It holds its store and context
/// weakly: once they are gone, it reaches nothing and its calls do nothing.
public struct ViewModelScope {
    /// The view model's store key, e.g. `film/2`.
    public let key: String
    /// A logger whose metadata names the view model's key (and its context's session).
    public var logger: Logger {
        // Made when asked for: most view models never log, and every one gets a scope.
        var logger = context?.logger ?? ViewModelContext.defaultLogger
        logger[metadataKey: "scene"] = .string(key)
        return logger
    }

    private weak var store: ViewModelStore?
    private weak var context: ViewModelContext?
    /// Where resources go while the view model is being made (its entry does not exist yet).
    private weak var resourcesWhileMade: ResourceBag?

    init(key: String, store: ViewModelStore?, context: ViewModelContext?, resourcesWhileMade: ResourceBag? = nil) {
        self.key = key
        self.store = store
        self.context = context
        self.resourcesWhileMade = resourcesWhileMade
    }

    /// The values the view model keeps across a restart of the server (see ``SavedStateHandle``).
    public var savedState: SavedStateHandle {
        SavedStateHandle(key: key, store: store)
    }

    /// The navigator of the view model's context, for its coordinator.
    /// - Throws: ``ViewModelStoreError`` when the view model is made outside a context.
    public func navigator() throws -> Navigator {
        guard let context else { throw ViewModelStoreError.noContext(key: key) }
        return context.navigator
    }

    /// Publishes the view model's state now when it changed, so that a long load shows what it
    /// has so far; what a call changes is published when the call ends in any case.
    public func publish() {
        store?.refresh(key)
        context?.flushRefreshes()
    }

    /// Starts `operation` as a task that runs on the context's isolation, one call at a time with
    /// the view model's others (so it may use the view model as its methods do), and is
    /// cancelled when the view model is cleared. What it changes is published when it ends.
    ///
    /// Outside a context served by an application (a bare store, a context without its actor),
    /// there is no isolation to run it on, and it is not run.
    public func launch(_ operation: @escaping () async -> Void) {
        guard let context, let startTask = context.startTask else { return }
        startTask(key, ContextTask(operation))
    }

    /// The view model of this type under another key of the same context, made through its
    /// scene's factory on first use (as a read of that scene would make it).
    /// - Throws: ``ViewModelStoreError`` when no scene has the key, its factory refuses it, or
    ///   it holds another type.
    public func viewModel<Model: ViewModel>(_ type: Model.Type = Model.self, key: String) throws -> Model {
        guard let context else { throw ViewModelStoreError.noContext(key: key) }
        return try context.viewModel(type, key: key)
    }

    /// The view model under another key, seen as `Object` (a protocol it conforms to, say), when
    /// there is one and it is one; made by no one.
    public func existing<Object>(_ type: Object.Type = Object.self, key: String) -> Object? {
        store?.entry(key)?.object as? Object
    }

    /// The error that the last load or action of the view model under `key` threw, as its state
    /// shows it; `nil` when the last one succeeded or there is no such view model.
    public func failure(of key: String) -> String? {
        store?.entry(key)?.error
    }

    /// Binds this view model to a value another view model of the context owns (the seed's
    /// `bind(to:)`): `apply` runs now with the current value, and again after each change, and
    /// this view model is then published, state and snapshot, when the call that made the
    /// change ends. Nothing is left to refresh by hand. The binding ends when this view model
    /// is cleared. Call it from the view model's initializer or a later call of its own.
    public func bind<Value: Equatable>(_ value: ObservableValue<Value>, _ apply: @escaping (Value) -> Void) {
        let key = key
        var isFirst = true
        let subscription = value.subscribe { [self] newValue in
            apply(newValue)
            // The first call runs now, inside this view model's own call, which publishes it.
            if isFirst { isFirst = false } else { setNeedsRefresh(key) }
        }
        if let store, store.entry(key) != nil {
            store.addResource(subscription, key: key)
        } else if let resourcesWhileMade {
            resourcesWhileMade.items.append(subscription)
        } else {
            subscription.close()
        }
    }

    /// Marks the view model under another key, whose output this one changed, to be published
    /// when the current call ends. A binding (``bind(_:_:)``) does this by itself.
    public func setNeedsRefresh(_ key: String) {
        if let context {
            context.setNeedsRefresh(key)
        } else {
            store?.refresh(key)
        }
    }
}

/// A task's operation handed from a view model to its context's actor.
// Safe: a ContextTask is made only by ViewModelScope.launch, from a call running on the
// context's actor, and is run only by ContextActor.runTask, an isolated method of that same
// actor, in a task that prefers the actor's executor as its task executor. The operation is
// nonisolated, so it runs (and resumes after each await) on that task executor, which is the
// actor's own queue: the operation and what it captures (the view model) are only ever used
// one job at a time with the actor's calls, as the view model's own calls are.
struct ContextTask: @unchecked Sendable {
    let operation: () async -> Void

    init(_ operation: @escaping () async -> Void) {
        self.operation = operation
    }
}
