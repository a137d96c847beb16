import MVVMClient
import MVVMCore
import MVVMServer
import MVVMServerTesting
import Testing

@testable import Scenes

@Suite("The find scene: its predicate is bound into find/people and find/planets (FindViewModelFactory)")
struct FindSceneTests {
    typealias Results = FindResultsViewModel.Output
    typealias Result = FindResultsViewModel.Result
    typealias ResultsScene = SceneClient<EmptyInput, Results>

    struct Scenes {
        let find: SceneClient<FindViewModel.Input, FindViewModel.Output>
        let people: ResultsScene
        let planets: ResultsScene

        init(_ session: SessionClient) {
            find = session.scene("find", input: FindViewModel.Input.self, output: FindViewModel.Output.self)
            people = session.scene("find/people", input: EmptyInput.self, output: Results.self)
            planets = session.scene("find/planets", input: EmptyInput.self, output: Results.self)
        }
    }

    @Test("A predicate set on find updates both result scenes in the same call", arguments: TestMode.allCases)
    func predicateReachesResults(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let scenes = Scenes(try await client.createSession())
            let people = try await scenes.people.state { $0.isLoaded }
            let planets = try await scenes.planets.state { $0.isLoaded }
            #expect(people.output == Results(kind: "people", predicate: "", count: 0, results: []))
            #expect(planets.output.kind == "planets")

            let peopleStore = try await SceneStore(scenes.people)
            let planetsStore = try await SceneStore(scenes.planets)
            #expect(try await scenes.find.setInput(members: ["predicate": "oo"]).output.predicate == "oo")
            try await planetsStore.receive {
                $0.output.predicate = "oo"
                $0.output.results = [Result(id: 1, name: "Tatooine"), Result(id: 8, name: "Naboo")]
                $0.output.count = 2
            }
            try await peopleStore.receive { $0.output.predicate = "oo" }
            try await planetsStore.finish()
            try await peopleStore.finish()
        }
    }

    @Test("The predicate ignores case and diacritics", arguments: TestMode.allCases)
    func predicateIgnoresCaseAndDiacritics(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let scenes = Scenes(try await client.createSession())
            _ = try await scenes.people.state { $0.isLoaded }
            try await scenes.find.setInput(members: ["predicate": "PADME"])
            #expect(try await scenes.people.state().output.results == [Result(id: 35, name: "Padmé Amidala")])
        }
    }

    @Test("A result scene made after the predicate was set starts from it", arguments: TestMode.allCases)
    func resultsMadeLater(mode: TestMode) async throws {
        try await TestServer.starWars().test(mode) { client in
            let scenes = Scenes(try await client.createSession())
            try await scenes.find.setInput(members: ["predicate": "sky"])
            let people = try await scenes.people.state { $0.isLoaded }
            #expect(people.output.predicate == "sky")
            #expect(people.output.results == [Result(id: 1, name: "Luke Skywalker"), Result(id: 11, name: "Anakin Skywalker")])
        }
    }

    @Test("A predicate set while the candidates load is applied once they arrive", arguments: TestMode.allCases)
    func predicateDuringLoad(mode: TestMode) async throws {
        let swapi = FakeSwapiService()
        let gate = await swapi.suspend(.people)
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let scenes = Scenes(try await client.createSession())
            _ = try await scenes.people.state()
            try await gate.waitForArrivals()
            let store = try await SceneStore(scenes.people)

            try await scenes.find.setInput(members: ["predicate": "leia"])
            try await store.receive { $0.output.predicate = "leia" }

            gate.open()
            try await store.receive {
                $0.lifecycle = .loaded
                $0.output.results = [Result(id: 5, name: "Leia Organa")]
                $0.output.count = 1
            }
            try await store.finish()
        }
    }

    /// The subscription is internal to the context: this test reads it on a context of its own.
    @Test("A result scene that leaves the store stops following the predicate")
    func subscriptionEndsWithTheScene() async throws {
        var dependencies = DependencyValues()
        dependencies.swapi = FakeSwapiService()
        let context = ContextActor(id: "find-test", catalogue: StarWarsApp.catalogue(), dependencies: dependencies)
        _ = try await context.state(of: "find/people")
        _ = try await context.state(of: "find/planets")

        let subscribers = try await context.withContext { context in
            let before = try context.viewModel(FindViewModel.self, key: "find").predicate.subscriberCount
            context.store.remove("find/people")
            let after = try context.viewModel(FindViewModel.self, key: "find").predicate.subscriberCount
            return (before, after)
        }
        #expect(subscribers.0 == 2)
        #expect(subscribers.1 == 1)
        await context.close()
    }
}
