import MVVMServer

/// The example app that ships with the server: the seeds' examples as scenes.
public enum StarWarsApp {
    /// Every scene, and the root scene of a new session.
    public static func catalogue() -> SceneCatalogue {
        SceneCatalogue(
            scenes: [
                Scene("car", key: "car", viewModel: CarViewModel.self, factory: DefaultViewModelFactory()),
            ],
            rootKey: "car")
    }
}
