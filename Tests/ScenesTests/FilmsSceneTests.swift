import MVVMClient
import MVVMServer
import MVVMServerTesting
import Testing

@testable import Scenes

@Suite("The films scene: sections per trilogy, filtered and sorted, and selection")
struct FilmsSceneTests {
    typealias Input = FilmsViewModel.Input
    typealias Output = FilmsViewModel.Output

    /// A film's cell as the snapshot writes it.
    struct FilmCell: Decodable, Equatable {
        var id: String
        var cell: String
        var title: String
        var episode: Int
        var releaseDate: String
        var director: String
    }

    /// The films scene of a new session (its root), once it has loaded.
    static func loadedFilms(_ client: MVVMClient) async throws -> SceneStore<Input, Output> {
        let films = try await client.createSession().scene("films", input: Input.self, output: Output.self)
        _ = try await films.state { $0.isLoaded }
        return try await SceneStore(films)
    }

    @Test("Before the films arrive, the output is defined and empty and the scene is loading", arguments: TestMode.allCases)
    func definedWhileLoading(mode: TestMode) async throws {
        let swapi = FakeSwapiService()
        let gate = await swapi.suspend(.films)
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let films = try await client.createSession().scene("films", input: Input.self, output: Output.self)
            try await gate.waitForArrivals()
            let store = try await SceneStore(films)
            #expect(store.state.lifecycle == .loading)
            #expect(store.state.output == Output())
            #expect(try await films.snapshot().sections.isEmpty)

            gate.open()
            try await store.receive {
                $0.lifecycle = .loaded
                $0.output.count = 5
                $0.output.total = 5
            }
            try await store.finish()
        }
    }

    @Test("Films are grouped in prequel, original and sequel sections, by episode", arguments: TestMode.allCases)
    func sectionsPerTrilogy(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedFilms(client)
            #expect(store.state.output == Output(count: 5, total: 5, error: nil))
            let snapshot = try await store.scene.snapshot()
            #expect(snapshot.sections.map(\.id) == ["prequel", "original", "sequel"])
            #expect(snapshot.itemIDs == [["4", "5"], ["1", "2"], ["7"]])
            let first = try #require(snapshot.sections.first?.items.first)
            #expect(
                try first.decode(as: FilmCell.self)
                    == FilmCell(
                        id: "4", cell: "film", title: "The Phantom Menace", episode: 1,
                        releaseDate: "1999-05-19", director: "George Lucas"))
        }
    }

    @Test("The filter matches titles ignoring case and diacritics", arguments: TestMode.allCases)
    func filterIgnoresCaseAndDiacritics(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedFilms(client)
            try await store.setInput(members: ["filter": "EMPIRE"]) {
                $0.input.filter = "EMPIRE"
                $0.output.count = 1
            }
            #expect(try await store.scene.snapshot().itemIDs == [["2"]])

            try await store.setInput(members: ["filter": "phántom"]) { $0.input.filter = "phántom" }
            #expect(try await store.scene.snapshot().itemIDs == [["4"]])

            try await store.setInput(members: ["filter": "The"]) {
                $0.input.filter = "The"
                $0.output.count = 4
            }
            let snapshot = try await store.scene.snapshot()
            #expect(snapshot.sections.map(\.id) == ["prequel", "original", "sequel"])
            #expect(snapshot.itemIDs == [["4", "5"], ["2"], ["7"]])
            try await store.finish()
        }
    }

    @Test("A filter that matches nothing leaves no sections and a count of zero", arguments: TestMode.allCases)
    func filterMatchingNothing(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedFilms(client)
            try await store.setInput(members: ["filter": "Ewoks"]) {
                $0.input.filter = "Ewoks"
                $0.output.count = 0
            }
            #expect(try await store.scene.snapshot().sections.isEmpty)
            try await store.finish()
        }
    }

    @Test("Sorting by release date puts the original trilogy first and orders each section by date", arguments: TestMode.allCases)
    func sortByReleaseDate(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedFilms(client)
            try await store.setInput(members: ["sort": "releaseDate"]) { $0.input.sort = .releaseDate }
            var snapshot = try await store.scene.snapshot()
            #expect(snapshot.sections.map(\.id) == ["original", "prequel", "sequel"])
            #expect(snapshot.itemIDs == [["1", "2"], ["4", "5"], ["7"]])

            try await store.setInput(members: ["sort": "episode"]) { $0.input.sort = .episode }
            snapshot = try await store.scene.snapshot()
            #expect(snapshot.sections.map(\.id) == ["prequel", "original", "sequel"])
            try await store.finish()
        }
    }

    @Test("A sort that is not episode or releaseDate is refused and changes nothing", arguments: TestMode.allCases)
    func unknownSort(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedFilms(client)
            let problem = try await #require(throws: ProblemDetails.self) {
                try await store.setInput(members: ["sort": "title"]) { _ in }
            }
            #expect(problem.kind == "invalid-input")
            #expect(problem.member == "sort")
            try await store.finish()
        }
    }

    @Test("Selecting a film by id pushes film/{id}", arguments: TestMode.allCases)
    func selectByID(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedFilms(client)
            let navigation = try await store.perform("select", arguments: ["id": "4"], navigation: .init(stack: ["films", "film/4"])) { _ in }
            #expect(navigation?.top?.presentation == .push)
            #expect(navigation?.top?.scene == "film")
            #expect(navigation?.modal == nil)
            try await store.finish()
        }
    }

    @Test("Selecting by section and item follows the current filter and sort", arguments: TestMode.allCases)
    func selectByPosition(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedFilms(client)
            try await store.perform("select", arguments: ["section": 1, "item": 1], navigation: .init(stack: ["films", "film/2"])) { _ in }
            try await store.setInput(members: ["sort": "releaseDate"]) { $0.input.sort = .releaseDate }
            try await store.perform("select", arguments: ["section": 1, "item": 0], navigation: .init(stack: ["films", "film/2", "film/4"])) { _ in }
            try await store.finish()
        }
    }

    @Test("Selecting an item the snapshot does not have is refused (invalid-arguments) and does not navigate", arguments: TestMode.allCases)
    func selectUnknownItem(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let store = try await Self.loadedFilms(client)
            let before = try await store.scene.session.navigation()

            let byPosition = try await #require(throws: ProblemDetails.self) {
                try await store.perform("select", arguments: ["section": 3, "item": 0]) { _ in }
            }
            #expect(byPosition.kind == "invalid-arguments")
            let byID = try await #require(throws: ProblemDetails.self) {
                try await store.perform("select", arguments: ["id": "3"]) { _ in }
            }
            #expect(byID.detail.contains(String(describing: ItemReference.id("3"))))

            try await store.setInput(members: ["filter": "Empire"]) {
                $0.input.filter = "Empire"
                $0.output.count = 1
            }
            await #expect(throws: ProblemDetails.self) {
                try await store.perform("select", arguments: ["id": "1"]) { _ in }
            }
            #expect(try await store.scene.session.navigation().version == before.version)
            try await store.finish()
        }
    }
}
