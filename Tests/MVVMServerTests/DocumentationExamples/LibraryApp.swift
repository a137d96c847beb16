import MVVMServer

extension DocumentationExamples {
    /// The library app: its scenes, its services and its settings.
    enum LibraryApp {
        /// The scenes; every session starts at the shelf.
        static let catalogue = SceneCatalogue(
            scenes: [
                Scene(
                    "shelf", key: "shelf", viewModel: ShelfViewModel.self,
                    factory: SingleViewModelFactory { extras in
                        try ShelfViewModel(
                            library: extras.dependencies.library,
                            coordinator: ShelfCoordinator(navigator: try extras.scope.navigator()),
                            scope: extras.scope)
                    }),
                Scene(
                    "book", key: "book/{id}", viewModel: BookViewModel.self,
                    factory: SingleViewModelFactory { extras in
                        guard let id = extras.intParameter("id") else { throw ViewModelStoreError.unknownKey(extras.key) }
                        return try BookViewModel(id: id, library: extras.dependencies.library, scope: extras.scope)
                    }),
                Scene(
                    "loans", key: "loans", viewModel: Loans.self,
                    factory: SingleViewModelFactory { extras in
                        Loans(savedState: extras.scope.savedState)
                    }),
            ],
            rootKey: "shelf")

        /// The settings the app sets in code. A flag or an `MVVM_*` variable given when the app
        /// starts wins over each of them.
        static func configuration(stateFile: String) -> ApplicationConfiguration {
            var configuration = ApplicationConfiguration()
            configuration.maxWaitSeconds = 30
            configuration.sessionIdleSeconds = 3600
            configuration.storage = .sqlite(path: stateFile, fullSync: true)
            return configuration
        }

        /// The app's `main`, as an executable target would have it under `@main` (a test target
        /// has no `main`: the tests run ``services(configuration:logger:)`` instead).
        static func main() async {
            var dependencies = DependencyValues()
            dependencies.library = BundledLibrary()
            await Application.main(
                name: "library", catalogue: catalogue, dependencies: dependencies,
                configuration: configuration(stateFile: "/var/lib/library/state.sqlite"))
        }

        /// The application as one service of a `ServiceGroup`, for an app that runs other
        /// services beside it; made this way, it reads no flags, and saves sessions only where
        /// its configuration's `storage` says.
        static func services(configuration: ApplicationConfiguration, logger: Logger) -> (Application, ServiceGroup) {
            let app = Application(configuration: configuration, catalogue: catalogue, logger: logger)
            let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [.sigint, .sigterm], logger: logger))
            return (app, group)
        }
    }
}
