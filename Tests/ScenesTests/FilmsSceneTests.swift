import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
@testable import Scenes
import Testing

@Suite("The films scene: sections per trilogy, filtered and sorted, and selection")
struct FilmsSceneTests {
    typealias Output = FilmsViewModel.Output

    @Test("Before the films arrive, the output is defined and empty and the scene is loading")
    func definedWhileLoading() async throws {
        let swapi = FakeSwapiService()
        let gate = await swapi.suspend(.films)
        let harness = try await SceneHarness(swapi: swapi, showingRoot: true)
        try await gate.waitForArrivals()

        let state = try await harness.state("films", as: Output.self)
        #expect(state.lifecycle == "loading")
        #expect(state.output == Output())
        #expect(try await harness.snapshot("films").sectionIDs.isEmpty)

        gate.open()
        let loaded = try await harness.loaded("films", as: Output.self)
        #expect(loaded.output.total == 5)
    }

    @Test("Films are grouped in prequel, original and sequel sections, by episode")
    func sectionsPerTrilogy() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        let state = try await harness.loaded("films", as: Output.self)

        #expect(state.output == Output(count: 5, total: 5, error: nil))
        let snapshot = try await harness.snapshot("films")
        #expect(snapshot.kind == "snapshot")
        #expect(snapshot.sectionIDs == ["prequel", "original", "sequel"])
        #expect(snapshot.itemIDs == [["4", "5"], ["1", "2"], ["7"]])
        let first = try #require(snapshot.sections?.first?.items.first)
        #expect(first["cell"] == .string("film"))
        #expect(first["title"] == .string("The Phantom Menace"))
        #expect(first["episode"] == .number(1))
        #expect(first["releaseDate"] == .string("1999-05-19"))
        #expect(first["director"] == .string("George Lucas"))
    }

    @Test("The filter matches titles ignoring case and diacritics")
    func filterIgnoresCaseAndDiacritics() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        _ = try await harness.loaded("films", as: Output.self)

        let empire = try await harness.setInput(["filter": .string("EMPIRE")], key: "films", as: Output.self)
        #expect(empire.output.count == 1)
        #expect(empire.output.total == 5)
        #expect(try await harness.snapshot("films").itemIDs == [["2"]])

        try await harness.setInput(["filter": .string("phántom")], key: "films", as: Output.self)
        #expect(try await harness.snapshot("films").itemIDs == [["4"]])

        let the = try await harness.setInput(["filter": .string("The")], key: "films", as: Output.self)
        #expect(the.output.count == 4)
        #expect(try await harness.snapshot("films").sectionIDs == ["prequel", "original", "sequel"])
        #expect(try await harness.snapshot("films").itemIDs == [["4", "5"], ["2"], ["7"]])
    }

    @Test("A filter that matches nothing leaves no sections and a count of zero")
    func filterMatchingNothing() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        _ = try await harness.loaded("films", as: Output.self)

        let state = try await harness.setInput(["filter": .string("Ewoks")], key: "films", as: Output.self)
        #expect(state.output == Output(count: 0, total: 5, error: nil))
        #expect(try await harness.snapshot("films").sectionIDs.isEmpty)
    }

    @Test("Sorting by release date puts the original trilogy first and orders each section by date")
    func sortByReleaseDate() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        _ = try await harness.loaded("films", as: Output.self)

        try await harness.setInput(["sort": .string("releaseDate")], key: "films", as: Output.self)
        #expect(try await harness.snapshot("films").sectionIDs == ["original", "prequel", "sequel"])
        #expect(try await harness.snapshot("films").itemIDs == [["1", "2"], ["4", "5"], ["7"]])

        try await harness.setInput(["sort": .string("episode")], key: "films", as: Output.self)
        #expect(try await harness.snapshot("films").sectionIDs == ["prequel", "original", "sequel"])
    }

    @Test("A sort that is not episode or releaseDate is refused and changes nothing")
    func unknownSort() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        let before = try await harness.loaded("films", as: Output.self)

        let error = try await #require(throws: InputError.self) {
            try await harness.setInput(["sort": .string("title")], key: "films", as: Output.self)
        }
        #expect(error.member == "sort")
        #expect(try await harness.state("films", as: Output.self).version == before.version)
    }

    @Test("Selecting a film by id pushes film/{id}")
    func selectByID() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        _ = try await harness.loaded("films", as: Output.self)

        let navigated = try await harness.perform("select", .item(id: "4"), key: "films")
        #expect(navigated)
        let navigation = try harness.navigation()
        #expect(navigation.stackKeys == ["films", "film/4"])
        #expect(navigation.stack.last?.presentation == "push")
        #expect(navigation.stack.last?.scene == "film")
        #expect(navigation.modal == nil)
    }

    @Test("Selecting by section and item follows the current filter and sort")
    func selectByPosition() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        _ = try await harness.loaded("films", as: Output.self)

        try await harness.perform("select", .position(section: 1, item: 1), key: "films")
        #expect(try harness.navigation().stackKeys == ["films", "film/2"])

        try await harness.setInput(["sort": .string("releaseDate")], key: "films", as: Output.self)
        try await harness.perform("select", .position(section: 1, item: 0), key: "films")
        #expect(try harness.navigation().stackKeys == ["films", "film/2", "film/4"])
    }

    @Test("Selecting an item the snapshot does not have throws itemNotFound and does not navigate")
    func selectUnknownItem() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        _ = try await harness.loaded("films", as: Output.self)
        let before = try harness.navigation()

        let byPosition = try await #require(throws: ActionError.self) {
            try await harness.perform("select", .position(section: 3, item: 0), key: "films")
        }
        guard case .itemNotFound = byPosition else {
            Issue.record("expected itemNotFound, got \(byPosition)")
            return
        }
        let byID = try await #require(throws: ActionError.self) {
            try await harness.perform("select", .item(id: "3"), key: "films")
        }
        #expect(byID == .itemNotFound(String(describing: ItemReference.id("3"))))

        let filtered = try await harness.setInput(["filter": .string("Empire")], key: "films", as: Output.self)
        #expect(filtered.output.count == 1)
        await #expect(throws: ActionError.self) {
            try await harness.perform("select", .item(id: "1"), key: "films")
        }
        #expect(try harness.navigation().version == before.version)
    }
}
