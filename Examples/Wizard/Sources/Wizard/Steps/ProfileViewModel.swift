import MVVMServer

/// The second step: a display name (refused empty when sent) and a short bio; `back` shows the
/// account step again, `next` the confirmation once a display name is entered.
final class ProfileViewModel: ViewModel {
    struct Input: ViewModelInput, Equatable {
        var displayName = ""
        var bio = ""
        init() {}
    }

    struct Output: Codable, Sendable, Equatable {
        var bioLength = 0
    }

    enum Action: String, CaseIterable, ViewModelAction {
        case back, next
    }

    static let maxBio = 160
    static let scene = Scene(
        "profile", key: WizardCoordinator.Step.profile.rawValue, viewModel: ProfileViewModel.self,
        factory: SingleViewModelFactory { extras in
            let (coordinator, draft) = try extras.scope.wizard()
            return ProfileViewModel(draft: draft, coordinator: coordinator)
        })

    var input = Input()
    private(set) var output = Output()
    private let draft: SignupDraft
    private let coordinator: WizardCoordinator

    init(draft: SignupDraft, coordinator: WizardCoordinator) {
        self.draft = draft
        self.coordinator = coordinator
        input.displayName = draft.values.displayName
        input.bio = draft.values.bio
        output.bioLength = input.bio.count
    }

    func validate(_ input: Input, sent: Set<String>) throws {
        if sent.contains("displayName"), input.displayName.allSatisfy(\.isWhitespace) {
            throw Refusal.input("displayName", "must not be empty")
        }
        if input.bio.count > Self.maxBio { throw Refusal.input("bio", "must be at most \(Self.maxBio) characters") }
    }

    func inputDidChange() {
        output.bioLength = input.bio.count
        draft.update { values in
            values.displayName = input.displayName
            values.bio = input.bio
        }
    }

    func perform(_ action: Action) async throws {
        switch action {
        case .back:
            try coordinator.show(.account)
        case .next:
            guard !input.displayName.allSatisfy(\.isWhitespace) else { throw Refusal.action("Enter a display name first.") }
            try coordinator.show(.confirm)
        }
    }
}
