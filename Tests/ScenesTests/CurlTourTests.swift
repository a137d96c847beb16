import Foundation
import ServerTestSupport
import TestSupport
import Testing

@testable import Scenes

@Suite("The example app article's curl tour, end to end over real HTTP")
struct CurlTourTests {
    typealias Films = FilmsViewModel.Output
    typealias Results = FindResultsViewModel.Output

    @Test("Create a session, load, filter, select, go back, search, find and embed")
    func tour() async throws {
        let app = try await TestApplication(
            catalogue: StarWarsApp.catalogue(), dependencies: try StarWarsApp.dependencies(latency: .milliseconds(200)))

        // POST /sessions: the films are the root of the new session.
        let created = try await app.request("POST", "/sessions")
        #expect(created.status == 201)
        let id = try #require(created.json["id"] as? String)
        #expect(created.headers["location"] == "/sessions/\(id)")
        let session = CurlSession(app: app, id: id)
        let root = try NavigationDocument(try JSONSerialization.data(withJSONObject: try #require(created.json["navigation"])))
        #expect(root.stackKeys == ["films"])
        #expect(root.stack.first?.presentation == "root")

        // GET the films while SWAPI answers (200 ms late): loading, with a defined output.
        let loading = try await session.state("films", as: Films.self)
        #expect(loading.lifecycle == "loading")
        #expect(loading.output == Films())

        // Long-poll ?since=V&wait=5 until the films have loaded.
        let loaded = try await session.waitForState("films", as: Films.self) { $0.isLoaded }
        #expect(loaded.version > loading.version)
        #expect(loaded.output == Films(count: 9, total: 9, error: nil))
        let snapshot = try await session.snapshot("films", atLeast: loaded.version)
        #expect(snapshot.kind == "snapshot")
        #expect(snapshot.version == loaded.version)
        #expect(snapshot.sectionIDs == ["prequel", "original", "sequel"])
        #expect(snapshot.itemIDs == [["4", "5", "6"], ["1", "2", "3"], ["7", "8", "9"]])

        // Filter by "the": A New Hope leaves; the snapshot since the old version lists that deletion.
        let filtered = try await session.input("films", ["filter": "the"], as: Films.self)
        #expect(filtered.output.count == 8)
        let changes = try await session.snapshot("films", since: snapshot.version)
        #expect(changes.kind == "changes")
        #expect(changes.since == snapshot.version)
        #expect(changes.version > snapshot.version)
        #expect(changes.changes?.items.deleted == [SnapshotJSON.ItemPosition(id: "1", section: "original", index: 0)])
        #expect(changes.changes?.items.inserted.isEmpty == true)
        #expect(changes.changes?.sections.deleted.isEmpty == true)

        // Select the first film: the answer carries the navigation with film/4 pushed.
        let selected = try await session.action("films", "select", ["section": 0, "item": 0], as: Films.self)
        let afterSelect = try #require(selected.navigation)
        #expect(afterSelect.stackKeys == ["films", "film/4"])
        #expect(afterSelect.stack.last?.path == session.path("/scenes/film/4"))
        let film = try await session.waitForState("film/4", as: FilmViewModel.Output.self) { $0.isLoaded }
        #expect(film.output.title == "The Phantom Menace")
        #expect(film.output.characterCount == 34)

        // Select its first character, C-3PO, and read the person with the homeworld.
        let characters = try await session.snapshot("film/4", atLeast: film.version)
        #expect(characters.version == film.version)
        #expect(characters.sections?.first?.items.first?["name"] == .string("C-3PO"))
        let picked = try await session.action("film/4", "selectCharacter", ["section": 0, "item": 0], as: FilmViewModel.Output.self)
        #expect(picked.navigation?.stackKeys == ["films", "film/4", "person/2"])
        let person = try await session.waitForState("person/2", as: PersonViewModel.Output.self) { $0.isLoaded }
        #expect(person.output.name == "C-3PO")
        #expect(person.output.homeworld?.name == "Tatooine")

        // Back: the person is popped.
        let back = try await session.back()
        #expect(back.stackKeys == ["films", "film/4"])

        // Search "sky": the models follow once the people are there.
        _ = try await session.input("search", ["query": "sky"], as: SearchViewModel.Output.self)
        let search = try await session.waitForState("search", as: SearchViewModel.Output.self) { $0.isLoaded }
        #expect(search.output.models.map(\.name) == ["Luke Skywalker", "Anakin Skywalker", "Shmi Skywalker"])

        // Find: a long-poll on find/people parked before the find input is woken by it.
        let results = try await session.waitForState("find/people", as: Results.self) { $0.isLoaded }
        #expect(results.output.predicate == "")
        #expect(results.output.results.isEmpty)
        let parkedBefore = try await app.metric("mvvm_parked_requests") ?? 0
        async let woken = session.get("/scenes/find/people?since=\(results.version)&wait=10", timeout: 15)
        try await app.waitUntilParked(parkedBefore + 1)
        let find = try await session.input("find", ["predicate": "sky"], as: FindViewModel.Output.self)
        #expect(find.output.predicate == "sky")
        let found = try SceneDocument<Results>(try await woken.body)
        #expect(found.version > results.version)
        #expect(found.output.predicate == "sky")
        #expect(found.output.results.map(\.name) == ["Luke Skywalker", "Anakin Skywalker", "Shmi Skywalker"])
        #expect(try await session.state("find/people", as: Results.self).version == found.version)

        // Embed the car in the dashboard's main slot: the navigation shows it there.
        let embedded = try await session.action("dashboard", "embed", ["slot": "main", "scene": "car"], as: DashboardViewModel.Output.self)
        #expect(embedded.output.slots == ["main": "car"])
        let navigation = try await session.navigation()
        #expect(navigation.stackKeys == ["films", "film/4", "dashboard"])
        let car = try #require(navigation.stack.last?.slots["main"])
        #expect(car.key == "car")
        #expect(car.presentation == "embedded")
        #expect(car.path == session.path("/scenes/car"))
        let huracan = try await session.input("car", ["make": "Lamborghini", "model": "Huracan"], as: CarViewModel.Output.self)
        #expect(huracan.output.horsePower == 782)

        await app.stop()
    }
}
