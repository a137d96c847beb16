import MVVMServer

/// The welcome of a signed-up user, pushed once the sign-up is submitted (`welcome/{username}`).
final class WelcomeViewModel: ViewModel {
    struct Output: Codable, Sendable, Equatable {
        var greeting: String
    }

    static let scene = Scene(
        "welcome", key: "welcome/{username}", viewModel: WelcomeViewModel.self,
        factory: SingleViewModelFactory { extras in
            WelcomeViewModel(username: extras.parameters["username"] ?? "")
        })

    /// The store key of the welcome of `username`.
    static func key(_ username: String) -> String {
        "welcome/\(username)"
    }

    var input = EmptyInput()
    let output: Output

    init(username: String) {
        output = Output(greeting: "Welcome, \(username)!")
    }
}
