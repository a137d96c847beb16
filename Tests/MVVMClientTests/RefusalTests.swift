import Foundation
import MVVMClient
import MVVMServer
import MVVMServerTesting
import Testing

@Suite("Refusals are answered 422, and publish nothing")
struct RefusalTests {
    /// A list of titles: an input title that must not be empty, `add` (whose title argument
    /// must not be empty), `undo` (refused when there is nothing to undo), and `fail` (a failure
    /// of accepted work, which is kept in the state's error).
    final class Titles: ViewModel {
        struct Input: ViewModelInput, Equatable {
            var draft = "untitled"
            init() {}
        }

        struct Output: Codable, Sendable, Equatable {
            var titles: [String] = []
        }

        enum Action: ViewModelAction {
            case add(title: String)
            case undo
            case fail
            static let names = ["add", "undo", "fail"]
        }

        struct Failure: Error {}

        var input = Input()
        private(set) var output = Output()

        func validate(_ input: Input) throws {
            if input.draft.isEmpty { throw Refusal.input("draft", "must not be empty") }
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .add(let title):
                guard !title.isEmpty else { throw Refusal.argument("title", "must not be empty") }
                output.titles.append(title)
            case .undo:
                guard !output.titles.isEmpty else { throw Refusal.action("There is nothing to undo.") }
                output.titles.removeLast()
            case .fail:
                throw Failure()
            }
        }
    }

    /// An account step: a username that must not be sent empty, and a nickname; both start
    /// empty, and neither is optional.
    final class Account: ViewModel {
        struct Input: ViewModelInput, Equatable {
            var username = ""
            var nickname = ""
            init() {}
        }

        struct Output: Codable, Sendable, Equatable {
            var ready = false
        }

        var input = Input()
        private(set) var output = Output()

        func validate(_ input: Input, sent: Set<String>) throws {
            if sent.contains("username"), input.username.isEmpty { throw Refusal.input("username", "must not be empty") }
        }

        func inputDidChange() {
            output.ready = !input.username.isEmpty
        }
    }

    static let catalogue = SceneCatalogue(
        scenes: [
            Scene("titles", key: "titles", viewModel: Titles.self, factory: SingleViewModelFactory { _ in Titles() }),
            Scene("account", key: "account", viewModel: Account.self, factory: SingleViewModelFactory { _ in Account() }),
        ],
        rootKey: "titles")

    enum Storage: String, CaseIterable, Sendable { case memory, file }

    static func server(_ storage: Storage, folder: URL) -> TestServer {
        var configuration = ApplicationConfiguration()
        if storage == .file { configuration.storage = .sqlite(path: folder.appending(path: "state.sqlite").path) }
        return TestServer(catalogue: catalogue, configuration: configuration)
    }

    @Test(
        "An input, an argument and an action refused: each a 422 naming what was refused, with no version, no event and no error; then a change goes through",
        arguments: TestMode.allCases, Storage.allCases)
    func refusalsChangeNothing(mode: TestMode, storage: Storage) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "mvvm-refusal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.server(storage, folder: folder).test(mode) { client in
            let scene = try await client.createSession().scene("titles", input: Titles.Input.self, output: Titles.Output.self)
            _ = try await scene.state { $0.isLoaded }
            let store = try await SceneStore(scene)
            try await store.refuseInput(members: ["draft": ""], member: "draft")
            try await store.refuse("add", arguments: ["title": ""], kind: "invalid-arguments", member: "title")
            try await store.refuse("undo", kind: "action-refused")
            try await store.perform("add", arguments: ["title": "first"]) { $0.output.titles = ["first"] }
            try await store.setInput(members: ["draft": "next"]) { $0.input.draft = "next" }
            try await store.finish()
        }
    }

    @Test(
        "validate(_:sent:) knows the members sent: an empty username sent while it is still at its default is refused; one not sent is not",
        arguments: TestMode.allCases)
    func validateKnowsWhatWasSent(mode: TestMode) async throws {
        try await TestServer(catalogue: Self.catalogue).test(mode) { client in
            let scene = try await client.createSession().scene("account", input: Account.Input.self, output: Account.Output.self)
            _ = try await scene.state { $0.isLoaded }
            let store = try await SceneStore(scene)
            try await store.refuseInput(members: ["username": ""], member: "username")
            try await store.refuseInput(members: ["username": "", "nickname": "Al"], member: "username")
            try await store.setInput(members: ["nickname": "Al"]) { $0.input.nickname = "Al" }
            try await store.setInput(members: ["username": "al"]) {
                $0.input.username = "al"
                $0.output.ready = true
            }
            try await store.finish()
        }
    }

    @Test(
        "A failure that is not a refusal is kept in the state's error, with a new version; asserting it as a refusal fails the test",
        arguments: TestMode.allCases)
    func failureIsPublished(mode: TestMode) async throws {
        try await TestServer(catalogue: Self.catalogue).test(mode) { client in
            let scene = try await client.createSession().scene("titles", input: Titles.Input.self, output: Titles.Output.self)
            _ = try await scene.state { $0.isLoaded }
            let store = try await SceneStore(scene)
            store.exhaustivity = .off
            await withKnownIssue {
                try await store.refuse("fail", kind: "action-refused")
            }
            let state = try await scene.state()
            #expect(state.error != nil)
            #expect(state.version > store.version)
        }
    }

    @Test(
        "GET /scenes lists each action's arguments from its declaration; arguments that do not decode are refused with the member named",
        arguments: TestMode.allCases)
    func argumentsListed(mode: TestMode) async throws {
        try await TestServer(catalogue: Self.catalogue).test(mode) { client in
            let scenes = try await client.catalogue().scenes
            let titles = try #require(scenes.first { $0.name == "titles" })
            #expect(
                titles.actionArguments == [
                    "add": [ActionArgumentDescription(name: "title", type: "string", isRequired: true)],
                    "undo": [],
                    "fail": [],
                ])
            let scene = try await client.createSession().scene("titles", input: Titles.Input.self, output: Titles.Output.self)
            _ = try await scene.state { $0.isLoaded }
            let store = try await SceneStore(scene)
            try await store.refuse("add", arguments: ["title": 7], kind: "invalid-arguments", member: "title")
            try await store.refuse("add", kind: "invalid-arguments", member: "title")
            try await store.finish()
        }
    }
}
