import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
@testable import Scenes
import Testing

@Suite("The search scene: a query in, suggestions out (RxSwift-MVVM-PoP)")
struct SearchSceneTests {
    typealias Output = SearchViewModel.Output
    typealias Suggestion = SearchViewModel.Suggestion

    @Test("A query without its accent finds the name with it: padme finds Padmé Amidala")
    func ignoresDiacritics() async throws {
        let harness = try await SceneHarness()
        _ = try await harness.loaded("search", as: Output.self)

        let state = try await harness.setInput(["query": .string("padme")], key: "search", as: Output.self)
        #expect(state.output.models == [Suggestion(id: 35, name: "Padmé Amidala")])
        #expect(try await harness.snapshot("search").itemIDs == [["35"]])
    }

    @Test("The query ignores case and the suggestions keep the service's order")
    func ignoresCase() async throws {
        let harness = try await SceneHarness()
        _ = try await harness.loaded("search", as: Output.self)

        let state = try await harness.setInput(["query": .string("SKY")], key: "search", as: Output.self)
        #expect(state.output.models == [Suggestion(id: 1, name: "Luke Skywalker"), Suggestion(id: 11, name: "Anakin Skywalker")])
        let snapshot = try await harness.snapshot("search")
        #expect(snapshot.sectionIDs == ["suggestions"])
        #expect(snapshot.sections?.first?.items.first?["name"] == .string("Luke Skywalker"))
        #expect(snapshot.sections?.first?.items.first?["cell"] == .string("suggestion"))
    }

    @Test("An empty or blank query suggests nothing")
    func blankQuery() async throws {
        let harness = try await SceneHarness()
        _ = try await harness.loaded("search", as: Output.self)
        try await harness.setInput(["query": .string("sky")], key: "search", as: Output.self)

        let state = try await harness.setInput(["query": .string("   ")], key: "search", as: Output.self)
        #expect(state.output.models.isEmpty)
        #expect(try await harness.snapshot("search").itemIDs == [[]])
    }

    @Test("A query typed while the people still load is applied once they arrive, latest wins")
    func queryDuringLoad() async throws {
        let swapi = FakeSwapiService()
        let people = await swapi.suspend(.people)
        let harness = try await SceneHarness(swapi: swapi)

        _ = try await harness.state("search", as: Output.self)
        try await people.waitForArrivals()
        let first = try await harness.setInput(["query": .string("sky")], key: "search", as: Output.self)
        let latest = try await harness.setInput(["query": .string("padme")], key: "search", as: Output.self)
        #expect(first.lifecycle == "loading")
        #expect(latest.lifecycle == "loading")
        #expect(latest.output.models.isEmpty)

        people.open()
        let loaded = try await harness.loaded("search", as: Output.self)
        #expect(loaded.output.models == [Suggestion(id: 35, name: "Padmé Amidala")])
        #expect(await swapi.count(.people) == 1)
    }

    @Test("The search button submits the current query and counts the taps")
    func buttonTapped() async throws {
        let harness = try await SceneHarness()
        _ = try await harness.loaded("search", as: Output.self)
        try await harness.setInput(["query": .string("leia")], key: "search", as: Output.self)

        let navigated = try await harness.perform("buttonTapped", key: "search")
        try await harness.perform("buttonTapped", key: "search")
        let state = try await harness.state("search", as: Output.self)
        #expect(!navigated)
        #expect(state.output.submittedQuery == "leia")
        #expect(state.output.buttonTaps == 2)
    }

    @Test("Tapping a suggestion's cell by section and item pushes person/{id}")
    func cellTapped() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        _ = try await harness.loaded("search", as: Output.self)
        try await harness.setInput(["query": .string("skywalker")], key: "search", as: Output.self)

        let navigated = try await harness.perform("cellTapped", .position(section: 0, item: 1), key: "search")
        #expect(navigated)
        #expect(try harness.navigation().stackKeys == ["films", "person/11"])
    }

    @Test("Tapping a cell that is not shown throws itemNotFound")
    func cellTappedOutOfRange() async throws {
        let harness = try await SceneHarness()
        _ = try await harness.loaded("search", as: Output.self)
        try await harness.setInput(["query": .string("padme")], key: "search", as: Output.self)

        let error = try await #require(throws: ActionError.self) {
            try await harness.perform("cellTapped", .position(section: 0, item: 1), key: "search")
        }
        #expect(error == .itemNotFound(String(describing: ItemReference.position(section: 0, item: 1))))
    }

    @Test("People that fail to load leave no suggestions and the error in the output")
    func peopleFail() async throws {
        let swapi = FakeSwapiService()
        await swapi.fail(.people)
        let harness = try await SceneHarness(swapi: swapi)

        let state = try await harness.loaded("search", as: Output.self)
        #expect(state.output.error == ApiError.status(503).description)
        let searched = try await harness.setInput(["query": .string("sky")], key: "search", as: Output.self)
        #expect(searched.output.models.isEmpty)
    }
}
