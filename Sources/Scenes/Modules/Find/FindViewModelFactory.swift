import MVVMServer

/// The seed's `FindViewModelFactory`: one composite factory that makes the find scene and its
/// result scenes, and binds find's predicate into each result of the same context.
public struct FindViewModelFactory: ViewModelFactory {
    /// The key of the find scene the results follow.
    public static let findKey = "find"

    /// Makes the factory.
    public init() {}

    private var factory: CompositeViewModelFactory {
        var factory = CompositeViewModelFactory()
        factory.add { _ in FindViewModel() }
        factory.add { extras in try Self.makeResults(extras) }
        return factory
    }

    /// Makes the asked view model.
    public func create<Model: ViewModel>(_ type: Model.Type, extras: CreationExtras) throws -> Model? {
        try factory.create(type, extras: extras)
    }

    /// Makes `find/people` or `find/planets` and binds it to find's predicate: it is published
    /// again each time the predicate changes.
    private static func makeResults(_ extras: CreationExtras) throws -> FindResultsViewModel {
        let scope = extras.scope
        let kind: FindResultsViewModel.Kind = extras.key.hasSuffix("planets") ? .planets : .people
        let results = FindResultsViewModel(kind: kind, swapi: extras.dependencies.swapi)
        let find = try scope.viewModel(FindViewModel.self, key: findKey)
        scope.bind(find.predicate) { [weak results] predicate in results?.apply(predicate) }
        return results
    }
}
