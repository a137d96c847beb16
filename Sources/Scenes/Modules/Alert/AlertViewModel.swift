import MVVMServer

/// The alert presented modally when a scene's service call still fails after its retries;
/// `retry` tries the call again (and dismisses on success), `dismiss` closes it. The scene
/// that failed keeps its valid output meanwhile.
public final class AlertViewModel: ViewModel {
    /// What the alert shows.
    public struct Output: Codable, Sendable, Equatable {
        /// The title.
        public var title = "Something went wrong"
        /// The failure, as the failed scene reports it.
        public var message = ""
        /// The key of the scene that failed.
        public var scene = ""
        /// How many retries were tried.
        public var retries = 0
    }

    /// The actions.
    public enum Action: String, CaseIterable, ViewModelAction {
        /// Try the failed call again.
        case retry
        /// Close the alert.
        case dismiss
    }

    /// No input.
    public var input = EmptyInput()
    /// The output.
    public private(set) var output = Output()
    private let scope: ViewModelScope
    private let coordinator: AlertCoordinator

    /// Makes the alert about the scene under `failedKey`.
    public init(failedKey: String, scope: ViewModelScope, coordinator: AlertCoordinator) {
        self.scope = scope
        self.coordinator = coordinator
        output.scene = failedKey
        output.message = Self.message(about: failedKey, in: scope)
    }

    /// Retries or dismisses.
    public func perform(_ action: Action) async throws {
        switch action {
        case .dismiss:
            try coordinator.dismiss()
        case .retry:
            output.retries += 1
            guard let failed = scope.existing((any RetryableViewModel).self, key: output.scene) else {
                try coordinator.dismiss()
                return
            }
            let succeeded = await failed.retry()
            scope.setNeedsRefresh(output.scene)
            if succeeded {
                try coordinator.dismiss()
            } else {
                output.message = Self.message(about: output.scene, in: scope)
            }
        }
    }

    private static func message(about key: String, in scope: ViewModelScope) -> String {
        guard let failed = scope.existing(AnyObject.self, key: key) else { return "The scene is gone." }
        return (failed as? any RetryableViewModel)?.failure ?? scope.failure(of: key) ?? "The service failed."
    }
}

/// The alert's flow controller.
public struct AlertCoordinator: Coordinator {
    /// The context's navigator.
    public let navigator: Navigator

    /// Dismisses the alert when it is the modal scene.
    public func dismiss() throws {
        if navigator.state.modal?.scene == "alert" { try navigator.dismiss() }
    }
}

/// Makes the alert module.
public enum AlertFactory {
    /// The scene: `alert/{key}` is the alert about the scene under `key`.
    public static let scene = Scene("alert", key: "alert/{scene...}", viewModel: AlertViewModel.self, factory: SingleViewModelFactory(create))

    /// Makes the view model.
    public static func create(_ extras: CreationExtras) throws -> AlertViewModel {
        AlertViewModel(
            failedKey: extras.parameters["scene"] ?? "", scope: extras.scope, coordinator: AlertCoordinator(navigator: try extras.scope.navigator()))
    }
}
