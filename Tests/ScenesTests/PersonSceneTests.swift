import MVVMClient
import MVVMServer
import MVVMServerTesting
import Testing

@testable import Scenes

@Suite("The person scene: details first, then the homeworld")
struct PersonSceneTests {
    typealias Input = PersonViewModel.Input
    typealias Output = PersonViewModel.Output

    @Test("The details are published while the homeworld still loads, then the homeworld follows", arguments: TestMode.allCases)
    func detailsThenHomeworld(mode: TestMode) async throws {
        let swapi = FakeSwapiService()
        let planets = await swapi.suspend(.planet)
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let person = try await client.createSession().scene("person/35", input: Input.self, output: Output.self)
            _ = try await person.state()
            try await planets.waitForArrivals()
            let details = try await person.state { $0.output.name == "Padmé Amidala" }
            #expect(details.lifecycle == .loading)
            #expect(details.output.homeworld == nil)
            #expect(details.output.films == [4, 5])
            #expect(details.output.birthYear == "19BBY")

            let store = try await SceneStore(person)
            planets.open()
            try await store.receive {
                $0.lifecycle = .loaded
                $0.output.homeworld = PersonViewModel.Homeworld(
                    id: 8, name: "Naboo", climate: "temperate",
                    terrain: "grassy hills, swamps, forests, mountains", population: "4500000000")
            }
            #expect(await swapi.calls.filter { $0 != "films" } == ["person 35", "planet 8"])
            try await store.finish()
        }
    }

    @Test("Before anything loads, the output holds the id from the key and no homeworld", arguments: TestMode.allCases)
    func definedBeforeLoading(mode: TestMode) async throws {
        let swapi = FakeSwapiService()
        let people = await swapi.suspend(.person)
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let person = try await client.createSession().scene("person/1", input: Input.self, output: Output.self)
            #expect(try await person.state().output == Output(id: 1))
            try await people.waitForArrivals()
            people.open()
            #expect(try await person.state { $0.isLoaded }.output.homeworld?.name == "Tatooine")
        }
    }

    @Test("A homeworld that fails keeps the details, shows the error and presents the alert", arguments: TestMode.allCases)
    func homeworldFails(mode: TestMode) async throws {
        let swapi = FakeSwapiService()
        await swapi.fail(.planet, with: ApiError.timedOut)
        try await TestServer.starWars(swapi: swapi).test(mode) { client in
            let person = try await client.createSession().scene("person/1", input: Input.self, output: Output.self)
            let state = try await person.state { $0.isLoaded }
            #expect(state.output.name == "Luke Skywalker")
            #expect(state.output.homeworld == nil)
            #expect(state.output.error == ApiError.timedOut.description)
            #expect(try await person.session.navigation().modal?.key == "alert/person/1")
        }
    }
}
