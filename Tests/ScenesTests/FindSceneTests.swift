import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
@testable import Scenes
import Testing

@Suite("The find scene: its predicate is bound into find/people and find/planets (FindViewModelFactory)")
struct FindSceneTests {
    typealias Results = FindResultsViewModel.Output
    typealias Result = FindResultsViewModel.Result

    @Test("A predicate set on find updates both result scenes in the same call")
    func predicateReachesResults() async throws {
        let harness = try await SceneHarness()
        let people = try await harness.loaded("find/people", as: Results.self)
        let planets = try await harness.loaded("find/planets", as: Results.self)
        #expect(people.output == Results(kind: "people", predicate: "", count: 0, results: []))
        #expect(planets.output.kind == "planets")

        let find = try await harness.setInput(["predicate": .string("oo")], key: "find", as: FindViewModel.Output.self)
        #expect(find.output.predicate == "oo")

        let foundPlanets = try await harness.state("find/planets", as: Results.self)
        #expect(foundPlanets.version > planets.version)
        #expect(foundPlanets.output.predicate == "oo")
        #expect(foundPlanets.output.results == [Result(id: 1, name: "Tatooine"), Result(id: 8, name: "Naboo")])
        #expect(foundPlanets.output.count == 2)
        let foundPeople = try await harness.state("find/people", as: Results.self)
        #expect(foundPeople.version > people.version)
        #expect(foundPeople.output.predicate == "oo")
        #expect(foundPeople.output.results.isEmpty)
    }

    @Test("The predicate ignores case and diacritics")
    func predicateIgnoresCaseAndDiacritics() async throws {
        let harness = try await SceneHarness()
        _ = try await harness.loaded("find/people", as: Results.self)

        try await harness.setInput(["predicate": .string("PADME")], key: "find", as: FindViewModel.Output.self)
        #expect(try await harness.state("find/people", as: Results.self).output.results == [Result(id: 35, name: "Padmé Amidala")])
    }

    @Test("A result scene made after the predicate was set starts from it")
    func resultsMadeLater() async throws {
        let harness = try await SceneHarness()
        try await harness.setInput(["predicate": .string("sky")], key: "find", as: FindViewModel.Output.self)

        let people = try await harness.loaded("find/people", as: Results.self)
        #expect(people.output.predicate == "sky")
        #expect(people.output.results == [Result(id: 1, name: "Luke Skywalker"), Result(id: 11, name: "Anakin Skywalker")])
    }

    @Test("A predicate set while the candidates load is applied once they arrive")
    func predicateDuringLoad() async throws {
        let swapi = FakeSwapiService()
        let gate = await swapi.suspend(.people)
        let harness = try await SceneHarness(swapi: swapi)
        _ = try await harness.state("find/people", as: Results.self)
        try await gate.waitForArrivals()

        try await harness.setInput(["predicate": .string("leia")], key: "find", as: FindViewModel.Output.self)
        let waiting = try await harness.state("find/people", as: Results.self)
        #expect(waiting.output.predicate == "leia")
        #expect(waiting.output.results.isEmpty)

        gate.open()
        let loaded = try await harness.loaded("find/people", as: Results.self)
        #expect(loaded.output.results == [Result(id: 5, name: "Leia Organa")])
    }

    @Test("A result scene that leaves the store stops following the predicate")
    func subscriptionEndsWithTheScene() async throws {
        let harness = try await SceneHarness()
        _ = try await harness.loaded("find/people", as: Results.self)
        _ = try await harness.loaded("find/planets", as: Results.self)

        let subscribers = try await harness.context.withContext { context in
            let before = try context.viewModel(FindViewModel.self, key: "find").predicate.subscriberCount
            context.store.remove("find/people")
            let after = try context.viewModel(FindViewModel.self, key: "find").predicate.subscriberCount
            return (before, after)
        }
        #expect(subscribers.0 == 2)
        #expect(subscribers.1 == 1)
    }
}
