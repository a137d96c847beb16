/// Hands out the view models of one store, made by one factory (the seed's
/// `ViewModelProviders.provider(for:with:)`, AndroidX's `ViewModelProvider`).
///
/// ```swift
/// let provider = ViewModelProvider(store: store, factory: MyViewModelFactory())
/// let car: CarViewModel = try provider.get()            // default key, from the type
/// let film: FilmViewModel = try provider.get(key: "film/2")  // a parameterised view model
/// ```
/// The type asked for is the type returned; when no factory makes it, `get` throws.
package struct ViewModelProvider {
    /// The store the view models live in.
    package let store: ViewModelStore
    private let factory: any ViewModelFactory
    private let dependencies: DependencyValues
    private weak var context: ViewModelContext?

    /// A provider for a store and a factory.
    package init(
        store: ViewModelStore, factory: any ViewModelFactory = DefaultViewModelFactory(), dependencies: DependencyValues = DependencyValues()
    ) {
        self.store = store
        self.factory = factory
        self.dependencies = dependencies
    }

    /// A provider for a context's store, passing the context to the factory in the extras.
    package init(for context: ViewModelContext, factory: any ViewModelFactory = DefaultViewModelFactory()) {
        self.init(store: context.store, factory: factory, dependencies: context.dependencies)
        self.context = context
    }

    /// The key used when none is given: the module-qualified type name, e.g. `Scenes.CarViewModel`.
    package static func defaultKey<Model: ViewModel>(for type: Model.Type) -> String {
        String(reflecting: type)
    }

    /// The view model of this type under its default key.
    package func get<Model: ViewModel>(_ type: Model.Type = Model.self) throws -> Model {
        try get(type, key: Self.defaultKey(for: type))
    }

    /// The view model of this type under `key`, made on first use.
    /// - Throws: ``ViewModelStoreError`` when the key holds another type or no factory makes it.
    package func get<Model: ViewModel>(_ type: Model.Type = Model.self, key: String) throws -> Model {
        try store.get(type, key: key, factory: factory, extras: CreationExtras(key: key, context: context, dependencies: dependencies))
    }
}
