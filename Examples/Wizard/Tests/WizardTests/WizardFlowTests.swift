import MVVMServerTesting
import Testing

@testable import Wizard

@Suite("The sign-up wizard, step by step")
struct WizardFlowTests {
    @Test("The session's first answer shows the account step in the sign-up's slot", arguments: TestMode.allCases)
    func firstStepAtOnce(mode: TestMode) async throws {
        try await TestServer.wizard().test(mode) { client in
            let session = try await client.createSession()
            let shown = try #require(try await session.navigation().top)
            #expect(shown.key == "signup")
            #expect(shown.slots["step"]?.key == "account")
        }
    }

    @Test(
        "The username check waits two seconds of the session's clock; next is refused until it answers, then shows the profile",
        arguments: TestMode.allCases)
    func usernameCheck(mode: TestMode) async throws {
        try await TestServer.wizard().test(mode) { client in
            let session = try await client.createSession()
            let store = try await SceneStore(session.account)
            store.exhaustivity = .off
            try await store.setInput(members: ["username": "ada", "password": "correct horse"]) {
                $0.input.username = "ada"
                $0.input.password = "correct horse"
                $0.output.username = .checking
            }
            try await store.refuse("next", kind: "action-refused")
            let early = try await session.advanceClock(by: .milliseconds(1999))
            #expect(early.waiting == 1)
            #expect(try await session.account.state().output.username == .checking)
            _ = try await session.advanceClock(by: .milliseconds(1))
            try await store.receive { $0.output.username = .available }
            try await store.perform("next", navigation: .init(stack: ["signup"], slots: ["step": "profile"])) { _ in }
        }
    }

    @Test("A taken username is reported, and next refused", arguments: TestMode.allCases)
    func takenUsername(mode: TestMode) async throws {
        try await TestServer.wizard().test(mode) { client in
            let session = try await client.createSession()
            try await session.enterAccount(username: "admin")
            #expect(try await session.account.state().output.username == .taken)
            let problem = try await #require(throws: ProblemDetails.self) { try await session.account.perform("next") }
            #expect(problem.detail.contains("taken"))
        }
    }

    @Test("What is sent empty is refused even while the field is at its default; what is not sent is not checked", arguments: TestMode.allCases)
    func refusals(mode: TestMode) async throws {
        try await TestServer.wizard().test(mode) { client in
            let session = try await client.createSession()
            let store = try await SceneStore(session.account)
            try await store.refuseInput(members: ["username": ""], member: "username")
            try await store.refuseInput(members: ["username": "Ada!"], member: "username")
            try await store.refuseInput(members: ["password": "short"], member: "password")
            try await store.setInput(members: ["password": "long enough"]) { $0.input.password = "long enough" }
        }
    }

    @Test("Each step keeps what was entered while the user goes back and forth; submit pushes the welcome", arguments: TestMode.allCases)
    func stepsKeepTheirData(mode: TestMode) async throws {
        try await TestServer.wizard().test(mode) { client in
            let session = try await client.createSession()
            try await session.enterAccount()
            _ = try await session.account.perform("next")
            _ = try await session.profile.setInput(members: ["displayName": "Ada L.", "bio": "Engines."])
            _ = try await session.profile.perform("back")
            let account = try await session.account.state()
            #expect(account.input.username == "ada")
            #expect(account.output.username == .available, "the check's answer is kept too")
            _ = try await session.account.perform("next")
            #expect(try await session.profile.state().input.displayName == "Ada L.")
            _ = try await session.profile.perform("next")
            let confirm = try await session.scene("confirm", input: NoInput.self, output: ConfirmViewModel.Output.self).state()
            #expect(confirm.output == ConfirmViewModel.Output(username: "ada", displayName: "Ada L.", bio: "Engines."))
            let submitted = try await session.scene("confirm", input: NoInput.self, output: ConfirmViewModel.Output.self).perform("submit")
            #expect(submitted.navigation?.stack.map(\.key) == ["signup", "welcome/ada"])
            let welcome = try await session.scene("welcome/ada", input: NoInput.self, output: WelcomeViewModel.Output.self).state()
            #expect(welcome.output.greeting == "Welcome, ada!")
            // The draft is the app's own: no client reaches it.
            await #expect(throws: ProblemDetails.self) {
                try await session.scene("draft", input: NoInput.self, output: SignupDraft.Output.self).state()
            }
        }
    }

    @Test(
        "Submit on the confirm step reached by its key alone, with no username in the draft, is refused (found by scripts/explore)",
        arguments: TestMode.allCases)
    func submitWithoutUsername(mode: TestMode) async throws {
        try await TestServer.wizard().test(mode) { client in
            let session = try await client.createSession()
            let confirm = session.scene("confirm", input: NoInput.self, output: ConfirmViewModel.Output.self)
            let problem = try await #require(throws: ProblemDetails.self) { try await confirm.perform("submit") }
            #expect(problem.status == 422 && problem.kind == "action-refused")
            #expect(try await session.navigation().stack.map(\.key) == ["signup"])
        }
    }

    @Test("The draft is saved: after a restart the account step shows what was entered", arguments: TestMode.allCases)
    func draftSurvivesRestart(mode: TestMode) async throws {
        try await TestServer.wizard().testRestart(mode) { client in
            let session = try await client.createSession()
            try await session.enterAccount()
            _ = try await session.account.perform("next")
            _ = try await session.profile.setInput(members: ["displayName": "Ada L."])
            return session.id
        } after: { client, id in
            let session = client.session(id: id)
            #expect(try await session.navigation().top?.slots["step"]?.key == "profile")
            #expect(try await session.profile.state().input.displayName == "Ada L.")
            _ = try await session.profile.perform("back")
            #expect(try await session.account.state().output.username == .available)
        }
    }
}

/// An input with no members, for reading scenes whose input is empty.
struct NoInput: Codable, Sendable {}
