/// Makes view models (the seed's `ViewModelFactory`, AndroidX's `ViewModelProvider.Factory`).
///
/// A factory answers `nil` for a type it does not make; the provider turns that into a
/// clear `ViewModelStoreError.noFactory`. Factories hold no state: what varies
/// per creation comes in the ``CreationExtras``.
public protocol ViewModelFactory: Sendable {
    /// Makes a view model of the asked type, or answers `nil` when this factory does not make it.
    func create<Model: ViewModel>(_ type: Model.Type, extras: CreationExtras) throws -> Model?
}

/// Makes every ``InitializableViewModel`` with its `init()` (the seed's `InitializableViewModelFactory`).
public struct DefaultViewModelFactory: ViewModelFactory {
    /// Makes the factory.
    public init() {}

    /// Calls `init()` when the type is initializable.
    public func create<Model: ViewModel>(_ type: Model.Type, extras: CreationExtras) throws -> Model? {
        (type as? any InitializableViewModel.Type)?.init() as? Model
    }
}

/// Makes one type of view model with one closure.
public struct SingleViewModelFactory<Made: ViewModel>: ViewModelFactory {
    private let make: @Sendable (CreationExtras) throws -> Made

    /// Makes the factory from a closure that receives the creation's extras.
    public init(_ make: @escaping @Sendable (CreationExtras) throws -> Made) {
        self.make = make
    }

    /// Makes the view model when the asked type is `Made`.
    public func create<Model: ViewModel>(_ type: Model.Type, extras: CreationExtras) throws -> Model? {
        guard type == Made.self else { return nil }
        return try make(extras) as? Model
    }
}

/// Several factories in one: the first that makes the asked type wins.
public struct CompositeViewModelFactory: ViewModelFactory {
    private var factories: [any ViewModelFactory]

    /// Makes a composite of factories, tried in order.
    public init(_ factories: [any ViewModelFactory] = []) {
        self.factories = factories
    }

    /// Adds a factory, tried after the ones already added.
    public mutating func add(_ factory: some ViewModelFactory) {
        factories.append(factory)
    }

    /// Adds a closure that makes one type.
    public mutating func add<Made: ViewModel>(_ make: @escaping @Sendable (CreationExtras) throws -> Made) {
        factories.append(SingleViewModelFactory(make))
    }

    /// Asks each factory in turn.
    public func create<Model: ViewModel>(_ type: Model.Type, extras: CreationExtras) throws -> Model? {
        for factory in factories {
            if let made = try factory.create(type, extras: extras) { return made }
        }
        return nil
    }
}
