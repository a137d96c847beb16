import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
@testable import Scenes
import Testing

@Suite("The film scene: one film's details, its characters, and opening a character")
struct FilmSceneTests {
    typealias Output = FilmViewModel.Output

    @Test("Before it loads, the film's output holds its id from the key and empty details")
    func definedWhileLoading() async throws {
        let swapi = FakeSwapiService()
        let gate = await swapi.suspend(.film)
        let harness = try await SceneHarness(swapi: swapi)

        let state = try await harness.state("film/4", as: Output.self)
        try await gate.waitForArrivals()
        #expect(state.output == Output(id: 4))
        #expect(try await harness.snapshot("film/4").sectionIDs.isEmpty)

        gate.open()
        #expect(try await harness.loaded("film/4", as: Output.self).output.title == "The Phantom Menace")
    }

    @Test("Loading shows the film's details and a snapshot of its characters by name")
    func detailsAndCharacters() async throws {
        let harness = try await SceneHarness()
        let state = try await harness.loaded("film/4", as: Output.self)

        #expect(state.output == Output(id: 4, title: "The Phantom Menace", episode: 1, director: "George Lucas", producer: "Rick McCallum",
                                       releaseDate: "1999-05-19", openingCrawl: "Turmoil has engulfed the Galactic Republic.", characterCount: 3))
        #expect(state.error == nil)
        let snapshot = try await harness.snapshot("film/4")
        #expect(snapshot.sectionIDs == ["characters"])
        #expect(snapshot.itemIDs == [["35", "11", "2"]])
        let names = snapshot.sections?.first?.items.map { $0["name"]?.text }
        #expect(names == ["Padmé Amidala", "Anakin Skywalker", "C-3PO"])
        #expect(snapshot.sections?.first?.items.allSatisfy { $0["cell"] == .string("character") } == true)
        #expect(await harness.swapi.calls == ["film 4", "people"])
    }

    @Test("A character the people list does not know is shown as Unknown")
    func unknownCharacter() async throws {
        let harness = try await SceneHarness()
        _ = try await harness.loaded("film/7", as: Output.self)

        let items = try #require(try await harness.snapshot("film/7").sections?.first?.items)
        #expect(items.map { $0["id"]?.text } == ["1", "5", "99"])
        #expect(items.last?["name"] == .string("Unknown"))
    }

    @Test("selectCharacter by section and item pushes person/{id}")
    func selectCharacterByPosition() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        _ = try await harness.loaded("films", as: FilmsViewModel.Output.self)
        try await harness.perform("select", .item(id: "4"), key: "films")
        _ = try await harness.loaded("film/4", as: Output.self)

        let navigated = try await harness.perform("selectCharacter", .position(section: 0, item: 1), key: "film/4")
        #expect(navigated)
        let navigation = try harness.navigation()
        #expect(navigation.stackKeys == ["films", "film/4", "person/11"])
        #expect(navigation.stack.last?.scene == "person")
    }

    @Test("selectCharacter by id pushes that person")
    func selectCharacterByID() async throws {
        let harness = try await SceneHarness()
        _ = try await harness.loaded("film/1", as: Output.self)

        try await harness.perform("selectCharacter", .item(id: "5"), key: "film/1")
        #expect(try harness.navigation().stackKeys == ["person/5"])
    }

    @Test("Selecting a character the snapshot does not have throws itemNotFound")
    func selectUnknownCharacter() async throws {
        let harness = try await SceneHarness()
        _ = try await harness.loaded("film/1", as: Output.self)

        let error = try await #require(throws: ActionError.self) {
            try await harness.perform("selectCharacter", .position(section: 0, item: 3), key: "film/1")
        }
        #expect(error == .itemNotFound(String(describing: ItemReference.position(section: 0, item: 3))))
        #expect(try harness.navigation().stack.isEmpty)
    }

    @Test("A film key whose id is not a number names no scene")
    func nonNumericID() async throws {
        let harness = try await SceneHarness()
        let error = try await #require(throws: ViewModelStoreError.self) {
            try await harness.state("film/jedi", as: Output.self)
        }
        #expect(error.isUnknownKey)
    }
}
