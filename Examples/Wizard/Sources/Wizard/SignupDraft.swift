import MVVMServer

/// What the user entered in the wizard's steps, kept while they go back and forth and in the
/// session's saved state (a restart brings it back): a scene of the app's own, which clients
/// never see, reached by the steps through their scope.
final class SignupDraft: ViewModel {
    struct Values: Codable, Equatable, Sendable {
        var username = ""
        var password = ""
        /// Whether the username was found free; `nil` until a check of it has answered.
        var usernameAvailable: Bool?
        var displayName = ""
        var bio = ""
    }

    struct Output: Codable, Sendable, Equatable {}

    static let key = "draft"
    static let scene = Scene(
        "draft", key: key, viewModel: SignupDraft.self,
        factory: SingleViewModelFactory { extras in
            SignupDraft(savedState: extras.scope.savedState)
        }, addressable: false)

    var input = EmptyInput()
    let output = Output()
    private(set) var values: Values
    private let savedState: SavedStateHandle

    init(savedState: SavedStateHandle) {
        self.savedState = savedState
        values = savedState["values", as: Values.self] ?? Values()
    }

    /// Changes the values and keeps them in the saved state.
    func update(_ change: (inout Values) -> Void) {
        change(&values)
        savedState["values"] = values
    }
}
