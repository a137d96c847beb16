import MVVMServer

/// The wizard's flow: each step is shown in the `step` slot of the sign-up, and a submitted
/// sign-up pushes its welcome.
struct WizardCoordinator: EmbedderCoordinator {
    let navigator: Navigator
    let containerKey = SignupViewModel.key

    /// The steps, in order, by their store keys.
    enum Step: String, CaseIterable {
        case account, profile, confirm
    }

    /// Shows `step` in the sign-up's slot, in place of the step shown.
    func show(_ step: Step) throws {
        try embed(step.rawValue, in: SignupViewModel.slot)
    }

    /// Pushes the welcome of `username`.
    func welcome(_ username: String) throws {
        try navigator.push(WelcomeViewModel.key(username))
    }
}

extension ViewModelScope {
    /// The wizard's coordinator, and the session's draft.
    func wizard() throws -> (coordinator: WizardCoordinator, draft: SignupDraft) {
        (WizardCoordinator(navigator: try navigator()), try viewModel(SignupDraft.self, key: SignupDraft.key))
    }
}
