import MVVMClient
import MVVMServer
import MVVMServerTesting
import Testing

@testable import Scenes

@Suite("The film scene: one film's details, its characters, and opening a character")
struct FilmSceneTests {
    typealias Output = FilmViewModel.Output

    /// A character's cell as the snapshot writes it.
    struct CharacterCell: Decodable, Equatable {
        var id: String
        var cell: String
        var name: String
    }

    static func film(_ client: MVVMClient, _ key: String) async throws -> SceneClient<FilmViewModel.Input, Output> {
        try await client.createSession().scene(key, input: FilmViewModel.Input.self, output: Output.self)
    }

    @Test("Before it loads, the film's output holds its id from the key and empty details", arguments: TestMode.allCases)
    func definedWhileLoading(mode: TestMode) async throws {
        let swapi = FakeSwapiService()
        let gate = await swapi.suspend(.film)
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let film = try await Self.film(client, "film/4")
            let state = try await film.state()
            try await gate.waitForArrivals()
            #expect(state.output == Output(id: 4))
            #expect(try await film.snapshot().sections.isEmpty)

            gate.open()
            #expect(try await film.state { $0.isLoaded }.output.title == "The Phantom Menace")
        }
    }

    @Test("Loading shows the film's details and a snapshot of its characters by name", arguments: TestMode.allCases)
    func detailsAndCharacters(mode: TestMode) async throws {
        let swapi = FakeSwapiService()
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let film = try await Self.film(client, "film/4")
            let state = try await film.state { $0.isLoaded }
            #expect(
                state.output
                    == Output(
                        id: 4, title: "The Phantom Menace", episode: 1, director: "George Lucas", producer: "Rick McCallum",
                        releaseDate: "1999-05-19", openingCrawl: "Turmoil has engulfed the Galactic Republic.", characterCount: 3))
            #expect(state.error == nil)
            let snapshot = try await film.snapshot()
            #expect(snapshot.sections.map(\.id) == ["characters"])
            let cells = try snapshot.sections.first?.items.map { try $0.decode(as: CharacterCell.self) }
            #expect(
                cells == [
                    CharacterCell(id: "35", cell: "character", name: "Padmé Amidala"),
                    CharacterCell(id: "11", cell: "character", name: "Anakin Skywalker"),
                    CharacterCell(id: "2", cell: "character", name: "C-3PO"),
                ])
            // The session's root (films) loads too.
            #expect(await swapi.calls.filter { $0 != "films" } == ["film 4", "people"])
        }
    }

    @Test("A character the people list does not know is shown as Unknown", arguments: TestMode.allCases)
    func unknownCharacter(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let film = try await Self.film(client, "film/7")
            _ = try await film.state { $0.isLoaded }
            let items = try #require(try await film.snapshot().sections.first?.items)
            #expect(items.map(\.id) == ["1", "5", "99"])
            #expect(try items.last?.decode(as: CharacterCell.self).name == "Unknown")
        }
    }

    @Test("selectCharacter by section and item pushes person/{id}", arguments: TestMode.allCases)
    func selectCharacterByPosition(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let session = try await client.createSession()
            let films = session.scene("films", input: FilmsViewModel.Input.self, output: FilmsViewModel.Output.self)
            _ = try await films.state { $0.isLoaded }
            try await films.perform("select", arguments: ["id": "4"])
            let film = session.scene("film/4", input: FilmViewModel.Input.self, output: Output.self)
            _ = try await film.state { $0.isLoaded }

            let store = try await SceneStore(film)
            let navigation = try await store.perform(
                "selectCharacter", arguments: ["section": 0, "item": 1],
                navigation: .init(stack: ["films", "film/4", "person/11"])
            ) { _ in }
            #expect(navigation?.top?.scene == "person")
            try await store.finish()
        }
    }

    @Test("selectCharacter by id pushes that person", arguments: TestMode.allCases)
    func selectCharacterByID(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let film = try await Self.film(client, "film/1")
            _ = try await film.state { $0.isLoaded }
            let store = try await SceneStore(film)
            try await store.perform("selectCharacter", arguments: ["id": "5"], navigation: .init(stack: ["films", "person/5"])) { _ in }
            try await store.finish()
        }
    }

    @Test("Selecting a character the snapshot does not have is refused and does not navigate", arguments: TestMode.allCases)
    func selectUnknownCharacter(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let film = try await Self.film(client, "film/1")
            _ = try await film.state { $0.isLoaded }
            let problem = try await #require(throws: ProblemDetails.self) {
                try await film.perform("selectCharacter", arguments: ["section": 0, "item": 3])
            }
            #expect(problem.kind == "invalid-arguments")
            #expect(problem.detail.contains(String(describing: ItemReference.position(section: 0, item: 3))))
            #expect(try await film.session.navigation().stack.map(\.key) == ["films"])
        }
    }

    @Test("A film key whose id is not a number names no scene", arguments: TestMode.allCases)
    func nonNumericID(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let film = try await Self.film(client, "film/jedi")
            let problem = try await #require(throws: ProblemDetails.self) { try await film.state() }
            #expect(problem.status == 404)
            #expect(problem.kind == "scene-not-found")
        }
    }
}
