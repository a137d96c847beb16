import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
@testable import Scenes
import Testing

@Suite("The person scene: details first, then the homeworld")
struct PersonSceneTests {
    typealias Output = PersonViewModel.Output

    @Test("The details are published while the homeworld still loads, then the homeworld follows")
    func detailsThenHomeworld() async throws {
        let swapi = FakeSwapiService()
        let planets = await swapi.suspend(.planet)
        let harness = try await SceneHarness(swapi: swapi)

        _ = try await harness.state("person/35", as: Output.self)
        try await planets.waitForArrivals()
        let details = try await harness.waitForState("person/35", as: Output.self) { $0.output.name == "Padmé Amidala" }
        #expect(details.lifecycle == "loading")
        #expect(details.output.homeworld == nil)
        #expect(details.output.films == [4, 5])
        #expect(details.output.birthYear == "19BBY")

        planets.open()
        let loaded = try await harness.loaded("person/35", as: Output.self)
        #expect(loaded.output.homeworld == PersonViewModel.Homeworld(id: 8, name: "Naboo", climate: "temperate",
                                                                       terrain: "grassy hills, swamps, forests, mountains", population: "4500000000"))
        #expect(loaded.output.name == "Padmé Amidala")
        #expect(loaded.version > details.version)
        #expect(await swapi.calls == ["person 35", "planet 8"])
    }

    @Test("Before anything loads, the output holds the id from the key and no homeworld")
    func definedBeforeLoading() async throws {
        let swapi = FakeSwapiService()
        let people = await swapi.suspend(.person)
        let harness = try await SceneHarness(swapi: swapi)

        let state = try await harness.state("person/1", as: Output.self)
        #expect(state.output == Output(id: 1))
        try await people.waitForArrivals()
        people.open()
        #expect(try await harness.loaded("person/1", as: Output.self).output.homeworld?.name == "Tatooine")
    }

    @Test("A homeworld that fails keeps the details, shows the error and presents the alert")
    func homeworldFails() async throws {
        let swapi = FakeSwapiService()
        await swapi.fail(.planet, with: ApiError.timedOut)
        let harness = try await SceneHarness(swapi: swapi)

        let state = try await harness.loaded("person/1", as: Output.self)
        #expect(state.output.name == "Luke Skywalker")
        #expect(state.output.homeworld == nil)
        #expect(state.output.error == ApiError.timedOut.description)
        #expect(try harness.navigation().modal?.key == "alert/person/1")
    }
}
