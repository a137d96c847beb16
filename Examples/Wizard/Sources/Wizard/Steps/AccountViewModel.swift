import MVVMServer

/// The first step: a username, checked against the directory as it is entered (two seconds of
/// the app's clock), and a password. An empty username or a short password sent is refused, a
/// member not sent is not; `next` is refused until the username is known to be free.
final class AccountViewModel: ViewModel {
    struct Input: ViewModelInput, Equatable {
        var username = ""
        var password = ""
        init() {}
    }

    enum Check: String, Codable, Sendable {
        case unchecked, checking, available, taken
    }

    struct Output: Codable, Sendable, Equatable {
        var username = Check.unchecked
    }

    enum Action: String, CaseIterable, ViewModelAction {
        case next
    }

    static let scene = Scene(
        "account", key: WizardCoordinator.Step.account.rawValue, viewModel: AccountViewModel.self,
        factory: SingleViewModelFactory { extras in
            let (coordinator, draft) = try extras.scope.wizard()
            return AccountViewModel(draft: draft, directory: extras.dependencies.usernames, coordinator: coordinator, scope: extras.scope)
        })

    var input = Input()
    private(set) var output = Output()
    private let draft: SignupDraft
    private let directory: UsernameDirectory
    private let coordinator: WizardCoordinator
    private let scope: ViewModelScope

    init(draft: SignupDraft, directory: UsernameDirectory, coordinator: WizardCoordinator, scope: ViewModelScope) {
        self.draft = draft
        self.directory = directory
        self.coordinator = coordinator
        self.scope = scope
        input.username = draft.values.username
        input.password = draft.values.password
        output.username =
            switch draft.values.usernameAvailable {
            case true?: .available
            case false?: .taken
            case nil: draft.values.username.isEmpty ? .unchecked : .checking
            }
        if output.username == .checking { check(draft.values.username) }
    }

    func validate(_ input: Input, sent: Set<String>) throws {
        if sent.contains("username") {
            if input.username.isEmpty { throw Refusal.input("username", "must not be empty") }
            if !input.username.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }) {
                throw Refusal.input("username", "must be lower-case letters, digits, '-' or '_'")
            }
        }
        if sent.contains("password"), input.password.count < 8 {
            throw Refusal.input("password", "must have at least 8 characters")
        }
    }

    func inputDidChange() {
        let renamed = input.username != draft.values.username
        draft.update { values in
            values.username = input.username
            values.password = input.password
            if renamed { values.usernameAvailable = nil }
        }
        if renamed { check(input.username) }
    }

    func perform(_ action: Action) async throws {
        switch output.username {
        case .unchecked: throw Refusal.action("Choose a username first.")
        case .checking: throw Refusal.action("The username is still being checked.")
        case .taken: throw Refusal.action("The username is taken.")
        case .available: break
        }
        guard input.password.count >= 8 else { throw Refusal.action("Choose a password of at least 8 characters first.") }
        try coordinator.show(.profile)
    }

    /// Asks the directory whether `username` is free; the answer counts only if the username
    /// is still the one entered.
    private func check(_ username: String) {
        output.username = .checking
        scope.launch { [weak self, directory] in
            guard let available = try? await directory.isAvailable(username), let self, input.username == username else { return }
            output.username = available ? .available : .taken
            draft.update { $0.usernameAvailable = available }
        }
    }
}
