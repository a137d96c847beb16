import MVVMServerTesting

@testable import Wizard

typealias AccountInput = AccountViewModel.Input
typealias AccountOutput = AccountViewModel.Output
typealias ProfileInput = ProfileViewModel.Input
typealias ProfileOutput = ProfileViewModel.Output

extension TestServer {
    /// The wizard in testing mode: its username directory made once, as the entry point makes
    /// it, waiting on each session's own test clock.
    static func wizard(storage: SessionStorage? = nil) -> TestServer {
        var configuration = ApplicationConfiguration()
        configuration.testing = true
        configuration.storage = storage
        return TestServer(catalogue: WizardApp.catalogue, configuration: configuration) { base in WizardApp.dependencies(base) }
    }
}

extension SessionClient {
    var account: SceneClient<AccountInput, AccountOutput> {
        scene("account", input: AccountInput.self, output: AccountOutput.self)
    }

    var profile: SceneClient<ProfileInput, ProfileOutput> {
        scene("profile", input: ProfileInput.self, output: ProfileOutput.self)
    }

    /// Enters an account whose username is free, moving this session's clock past its check.
    func enterAccount(username: String = "ada", password: String = "correct horse") async throws {
        _ = try await account.setInput(members: ["username": username, "password": password])
        _ = try await advanceClock(by: .seconds(2))
    }
}
