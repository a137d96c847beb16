import MVVMServer

/// Makes the films module: its view model wired to its flow controller and the SWAPI service.
public enum FilmsFactory {
    /// The scene, the root of every session.
    public static let scene = Scene("films", key: "films", viewModel: FilmsViewModel.self, factory: SingleViewModelFactory(create))

    /// Makes the view model.
    public static func create(_ extras: CreationExtras) throws -> FilmsViewModel {
        FilmsViewModel(key: extras.key, swapi: extras.dependencies.swapi, coordinator: FilmsCoordinator(navigator: try extras.scope.navigator()))
    }
}
