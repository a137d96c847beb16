import Foundation
import MVVMClient
import MVVMServer
import MVVMServerTesting
import Testing

@testable import Scenes

@Suite("The search scene: a query in, suggestions out (RxSwift-MVVM-PoP)")
struct SearchSceneTests {
    typealias Input = SearchViewModel.Input
    typealias Output = SearchViewModel.Output
    typealias Suggestion = SearchViewModel.Suggestion

    /// A suggestion's cell as the snapshot writes it: the item's id (a string) over the person's.
    struct SuggestionCell: Decodable, Equatable {
        var id: String
        var cell: String
        var name: String
    }

    /// The search scene of a new session, loaded: made by its first read, it loads the people.
    static func loadedSearch(_ client: MVVMClient) async throws -> SceneStore<Input, Output> {
        let store = try await SceneStore(try await client.createSession().scene("search", input: Input.self, output: Output.self))
        try await store.receive { $0.lifecycle = .loaded }
        return store
    }

    @Test("A query without its accent finds the name with it: padme finds Padmé Amidala", arguments: TestMode.allCases)
    func ignoresDiacritics(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedSearch(client)
            try await store.setInput(members: ["query": "padme"]) {
                $0.input.query = "padme"
                $0.output.models = [Suggestion(id: 35, name: "Padmé Amidala")]
            }
            #expect(try await store.scene.snapshot().itemIDs == [["35"]])
            try await store.finish()
        }
    }

    @Test("The query ignores case and the suggestions keep the service's order", arguments: TestMode.allCases)
    func ignoresCase(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedSearch(client)
            try await store.setInput(members: ["query": "SKY"]) {
                $0.input.query = "SKY"
                $0.output.models = [Suggestion(id: 1, name: "Luke Skywalker"), Suggestion(id: 11, name: "Anakin Skywalker")]
            }
            let snapshot = try await store.scene.snapshot()
            #expect(snapshot.sections.map(\.id) == ["suggestions"])
            let first = try #require(snapshot.sections.first?.items.first)
            #expect(first.cell == "suggestion")
            #expect(try first.decode(as: SuggestionCell.self) == SuggestionCell(id: "1", cell: "suggestion", name: "Luke Skywalker"))
            try await store.finish()
        }
    }

    @Test("An empty or blank query suggests nothing", arguments: TestMode.allCases)
    func blankQuery(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedSearch(client)
            try await store.setInput(members: ["query": "sky"]) {
                $0.input.query = "sky"
                $0.output.models = [Suggestion(id: 1, name: "Luke Skywalker"), Suggestion(id: 11, name: "Anakin Skywalker")]
            }
            try await store.setInput(members: ["query": "   "]) {
                $0.input.query = "   "
                $0.output.models = []
            }
            #expect(try await store.scene.snapshot().itemIDs == [[]])
            try await store.finish()
        }
    }

    @Test("A query typed while the people still load is applied once they arrive, latest wins", arguments: TestMode.allCases)
    func queryDuringLoad(mode: TestMode) async throws {
        let swapi = FakeSwapiService()
        let people = await swapi.suspend(.people)
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let store = try await SceneStore(try await client.createSession().scene("search", input: Input.self, output: Output.self))
            try await people.waitForArrivals()
            try await store.setInput(members: ["query": "sky"]) {
                $0.lifecycle = .loading
                $0.input.query = "sky"
            }
            try await store.setInput(members: ["query": "padme"]) { $0.input.query = "padme" }

            people.open()
            try await store.receive {
                $0.lifecycle = .loaded
                $0.output.models = [Suggestion(id: 35, name: "Padmé Amidala")]
            }
            #expect(await swapi.count(.people) == 1)
            try await store.finish()
        }
    }

    @Test("The search button submits the current query and counts the taps", arguments: TestMode.allCases)
    func buttonTapped(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedSearch(client)
            try await store.setInput(members: ["query": "leia"]) {
                $0.input.query = "leia"
                $0.output.models = [Suggestion(id: 5, name: "Leia Organa")]
            }
            let navigated = try await store.perform("buttonTapped") {
                $0.output.submittedQuery = "leia"
                $0.output.buttonTaps = 1
            }
            #expect(navigated == nil)
            try await store.perform("buttonTapped") { $0.output.buttonTaps = 2 }
            try await store.finish()
        }
    }

    @Test("Tapping a suggestion's cell by section and item pushes person/{id}", arguments: TestMode.allCases)
    func cellTapped(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedSearch(client)
            try await store.setInput(members: ["query": "skywalker"]) {
                $0.input.query = "skywalker"
                $0.output.models = [Suggestion(id: 1, name: "Luke Skywalker"), Suggestion(id: 11, name: "Anakin Skywalker")]
            }
            try await store.perform("cellTapped", arguments: ["section": 0, "item": 1], navigation: .init(stack: ["films", "person/11"])) { _ in }
            try await store.finish()
        }
    }

    @Test("Tapping a cell that is not shown is refused (invalid-arguments), and changes nothing", arguments: TestMode.allCases)
    func cellTappedOutOfRange(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedSearch(client)
            try await store.setInput(members: ["query": "padme"]) {
                $0.input.query = "padme"
                $0.output.models = [Suggestion(id: 35, name: "Padmé Amidala")]
            }
            let problem = try await #require(throws: ProblemDetails.self) {
                try await store.perform("cellTapped", arguments: ["section": 0, "item": 1]) { _ in }
            }
            #expect(problem.status == 422)
            #expect(problem.kind == "invalid-arguments")
            #expect(problem.detail.contains(String(describing: ItemReference.position(section: 0, item: 1))))
            try await store.finish()
        }
    }

    @Test("People that fail to load leave no suggestions and the error in the output", arguments: TestMode.allCases)
    func peopleFail(mode: TestMode) async throws {
        let swapi = FakeSwapiService()
        await swapi.fail(.people)
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let store = try await SceneStore(try await client.createSession().scene("search", input: Input.self, output: Output.self))
            try await store.receive {
                $0.lifecycle = .loaded
                $0.output.error = ApiError.status(503).description
            }
            try await store.setInput(members: ["query": "sky"]) { $0.input.query = "sky" }
            try await store.finish()
        }
    }

    @Test("The taps and the submitted query are saved values: they survive a restart, with the query", arguments: TestMode.allCases)
    func tapsSurviveRestart(mode: TestMode) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "search-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "state.sqlite").path
        let id = try await TestServer.starWars(stateFile: file).test(mode) { client in
            let session = try await client.createSession()
            let search = session.scene("search", input: Input.self, output: Output.self)
            try await search.setInput(members: ["query": "leia"])
            try await search.perform("buttonTapped")
            try await search.perform("buttonTapped")
            return session.id
        }
        try await TestServer.starWars(stateFile: file).test(mode) { client in
            let search = client.session(id: id).scene("search", input: Input.self, output: Output.self)
            let restored = try await search.state { $0.isLoaded }
            #expect(restored.input.query == "leia")
            #expect(restored.output.buttonTaps == 2)
            #expect(restored.output.submittedQuery == "leia")
            #expect(restored.output.models == [Suggestion(id: 5, name: "Leia Organa")])
        }
    }
}
