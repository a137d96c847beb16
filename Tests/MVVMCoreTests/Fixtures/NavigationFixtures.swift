import MVVMCore
import MVVMJSON
import MVVMSupport

extension Core {
    /// The coordinator of the home scene (MVVMKit's `RootCoordinator`, SWAPI MVVM's flow
    /// controller): it names the next scene by key and asks the navigator to show it.
    final class HomeCoordinator: Coordinator {
        let navigator: Navigator

        init(navigator: Navigator) {
            self.navigator = navigator
        }

        func showFilm(_ id: Int) throws {
            try navigator.push("film/\(id)")
        }

        func showSettings() throws {
            try navigator.present("settings")
        }
    }

    /// The root scene: its actions navigate, through its coordinator only.
    final class HomeViewModel: ViewModel {
        enum Action: ViewModelAction, Decodable {
            case openFilm(id: Int)
            case presentSettings

            static let names = ["openFilm", "presentSettings"]
        }

        struct Output: Codable, Sendable, Equatable {
            var title = "Home"
        }

        var input = EmptyInput()
        let output = Output()
        let coordinator: HomeCoordinator

        init(coordinator: HomeCoordinator) {
            self.coordinator = coordinator
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .openFilm(let id): try coordinator.showFilm(id)
            case .presentSettings: try coordinator.showSettings()
            }
        }
    }

    /// A modal scene.
    final class SettingsViewModel: InitializableViewModel {
        struct Output: Codable, Sendable, Equatable {
            var units = "metric"
        }

        var input = EmptyInput()
        let output = Output()

        init() {}
    }

    /// A modal scene that closes itself through its coordinator (an alert's OK button).
    final class AlertViewModel: ViewModel {
        enum Action: ViewModelAction, Decodable {
            case dismiss

            static let names = ["dismiss"]
        }

        struct Output: Codable, Sendable, Equatable {
            var message = "The Death Star is operational."
        }

        var input = EmptyInput()
        let output = Output()
        private let navigator: Navigator

        init(navigator: Navigator) {
            self.navigator = navigator
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .dismiss: try navigator.dismiss()
            }
        }
    }

    /// The coordinator of a container scene (MVVMKit's `ContainerCoordinator`).
    final class TabsCoordinator: EmbedderCoordinator {
        let navigator: Navigator
        let containerKey: String

        init(navigator: Navigator, containerKey: String) {
            self.navigator = navigator
            self.containerKey = containerKey
        }
    }

    /// A container scene with the slots `main` and `side`; its action embeds a film in a slot
    /// (MVVMKit's `coordinator.embedChildViewController(in: .main)`).
    final class TabsViewModel: ViewModel {
        enum Action: ViewModelAction, Decodable {
            case show(film: Int, slot: String)

            static let names = ["show"]
        }

        struct Output: Codable, Sendable, Equatable {
            var tabs = 2
        }

        var input = EmptyInput()
        let output = Output()
        let coordinator: TabsCoordinator

        init(coordinator: TabsCoordinator) {
            self.coordinator = coordinator
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .show(let film, let slot): try coordinator.embed("film/\(film)", in: slot)
            }
        }
    }

    /// The scenes of the navigation tests: `home` (root), `film/{id}`, `settings` (modal),
    /// `tabs` (a container with the slots `main` and `side`) and `alert` (a modal that
    /// dismisses itself).
    enum NavigationFixtures {
        static func catalogue() -> SceneCatalogue {
            let coordinated = CompositeViewModelFactory([
                SingleViewModelFactory { extras in
                    HomeViewModel(coordinator: HomeCoordinator(navigator: try extras.requireContext().navigator))
                },
                SingleViewModelFactory { extras in
                    TabsViewModel(coordinator: TabsCoordinator(navigator: try extras.requireContext().navigator, containerKey: extras.key))
                },
                SingleViewModelFactory { extras in
                    AlertViewModel(navigator: try extras.requireContext().navigator)
                },
            ])
            return SceneCatalogue(
                scenes: [
                    Scene("home", key: "home", viewModel: HomeViewModel.self, factory: coordinated),
                    Scene("film", key: "film/{id}", viewModel: FilmViewModel.self, factory: FilmViewModel.factory),
                    Scene("settings", key: "settings", viewModel: SettingsViewModel.self, factory: DefaultViewModelFactory()),
                    Scene("tabs", key: "tabs", viewModel: TabsViewModel.self, factory: coordinated, slots: ["main", "side"]),
                    Scene("alert", key: "alert", viewModel: AlertViewModel.self, factory: coordinated),
                ],
                rootKey: "home")
        }
    }
}
