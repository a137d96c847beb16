import MVVMServer

/// The last step: what will be signed up, from the draft; `back` shows the profile again,
/// `submit` pushes the welcome of the username (refused while the draft has none).
final class ConfirmViewModel: ViewModel {
    struct Output: Codable, Sendable, Equatable {
        var username: String
        var displayName: String
        var bio: String
    }

    enum Action: String, CaseIterable, ViewModelAction {
        case back, submit
    }

    static let scene = Scene(
        "confirm", key: WizardCoordinator.Step.confirm.rawValue, viewModel: ConfirmViewModel.self,
        factory: SingleViewModelFactory { extras in
            let (coordinator, draft) = try extras.scope.wizard()
            return ConfirmViewModel(draft: draft, coordinator: coordinator)
        })

    var input = EmptyInput()
    let output: Output
    private let coordinator: WizardCoordinator

    init(draft: SignupDraft, coordinator: WizardCoordinator) {
        output = Output(username: draft.values.username, displayName: draft.values.displayName, bio: draft.values.bio)
        self.coordinator = coordinator
    }

    func perform(_ action: Action) async throws {
        switch action {
        case .back: try coordinator.show(.profile)
        case .submit:
            // Reached by its key alone, the step may show a draft the account step never filled.
            guard !output.username.isEmpty else { throw Refusal.action("Choose a username on the account step first.") }
            try coordinator.welcome(output.username)
        }
    }
}
