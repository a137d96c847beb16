import MVVMServer

/// MVVMKit's embedding: a container with the slots `main` and `side`; `embed` puts a scene in a
/// slot, and the navigation document shows it there.
public final class DashboardViewModel: ViewModel {
    /// What the client reads.
    public struct Output: Codable, Sendable, Equatable {
        /// The slots and the key embedded in each (absent when empty).
        public var slots: [String: String] = [:]
        /// The slots offered.
        public var available = DashboardFactory.slots
    }

    /// The actions.
    public enum Action: ViewModelAction {
        /// Embeds the scene under key `scene` in `slot`.
        case embed(slot: String, scene: String)
    }

    /// No input.
    public var input = EmptyInput()
    /// The output.
    public private(set) var output = Output()
    private let coordinator: DashboardCoordinator

    /// Makes the view model.
    public init(coordinator: DashboardCoordinator) {
        self.coordinator = coordinator
    }

    /// Embeds a scene.
    public func perform(_ action: Action) async throws {
        switch action {
        case .embed(let slot, let scene):
            guard DashboardFactory.slots.contains(slot) else {
                throw ActionError.invalidArguments(
                    InputError(member: "slot", reason: "must be one of \(DashboardFactory.slots.joined(separator: ", "))"))
            }
            guard scene != coordinator.containerKey else {
                throw ActionError.invalidArguments(InputError(member: "scene", reason: "cannot be the dashboard itself"))
            }
            do {
                // The child first: a key its factory refuses (`film/abc`) fails before the
                // dashboard is shown, so that a refused embed changes nothing.
                try coordinator.navigator.prepare(scene)
            } catch is ViewModelStoreError {
                throw ActionError.invalidArguments(InputError(member: "scene", reason: "is not the key of a scene"))
            }
            try coordinator.showIfNeeded()
            try coordinator.embed(scene, in: slot)
            output.slots[slot] = scene
        }
    }
}

/// The dashboard's coordinator: embeds children in its slots.
public struct DashboardCoordinator: EmbedderCoordinator {
    /// The context's navigator.
    public let navigator: Navigator
    /// The dashboard's key.
    public let containerKey: String

    /// Pushes the dashboard when it is not shown, so that children can be embedded in it.
    public func showIfNeeded() throws {
        if !navigator.state.shownKeys.contains(containerKey) { try navigator.push(containerKey) }
    }
}

/// Makes the dashboard module.
public enum DashboardFactory {
    /// The slots of the dashboard.
    public static let slots = ["main", "side"]
    /// The scene: `dashboard`.
    public static let scene = Scene(
        "dashboard", key: "dashboard", viewModel: DashboardViewModel.self, factory: SingleViewModelFactory(create), slots: slots)

    /// Makes the view model.
    public static func create(_ extras: CreationExtras) throws -> DashboardViewModel {
        DashboardViewModel(coordinator: DashboardCoordinator(navigator: try extras.scope.navigator(), containerKey: extras.key))
    }
}
