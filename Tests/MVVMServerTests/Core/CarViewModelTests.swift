import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import Testing

extension Core {
    /// Seed 003's `CarViewModel`, driven as a client drives it: through its context, by JSON input,
    /// reading its state document.
    @Suite("Seed 003's CarViewModel in a context")
    struct CarViewModelTests {
        typealias State = SceneState<CarViewModel.Input, CarViewModel.Output>

        private func makeContext() -> ContextActor {
            let catalogue = SceneCatalogue(
                scenes: [Scene("car", key: "car", viewModel: CarViewModel.self, factory: DefaultViewModelFactory())], rootKey: "car")
            return ContextActor(id: "car", catalogue: catalogue, dependencies: DependencyValues())
        }

        @Test("The outputs are 0 and 0 before any input")
        func definedBeforeInput() async throws {
            let context = makeContext()
            let state = try State(await context.state(of: "car"))
            #expect(state.output == CarViewModel.Output(horsePower: 0, weight: 0))
            #expect(state.key == "car" && state.scene == "car")
            #expect(state.error == nil)
            await context.close()
        }

        @Test("A Lamborghini Huracan has 782 horse power and weighs 2100; any other car 120 and 1100")
        func outputsFollowInputs() async throws {
            let context = makeContext()
            _ = try await context.state(of: "car")
            try await context.board.waitForLifecycle(.loaded, of: "car")
            let huracan = try State(await context.setInput(["make": .string("Lamborghini"), "model": .string("Huracan")], key: "car"))
            #expect(huracan.output == CarViewModel.Output(horsePower: 782, weight: 2100))
            let panda = try State(await context.setInput(["make": .string("Fiat"), "model": .string("Panda")], key: "car"))
            #expect(panda.output == CarViewModel.Output(horsePower: 120, weight: 1100))
            let cleared = try State(await context.setInput(["model": .null], key: "car"))
            #expect(cleared.output == CarViewModel.Output(horsePower: 0, weight: 0), "without a model the outputs go back to 0")
            #expect(cleared.input.make == "Fiat" && cleared.input.model == nil)

            let updates = try #require(context.events.events(after: 0)).filter { $0.type == "didUpdate" }
            #expect(updates.map(\.changes) == [["horsePower", "weight"], ["horsePower", "weight"], ["horsePower", "weight"]])
            await context.close()
        }

        @Test("The scene's catalogue entry lists the car's input members")
        func sceneDescribesTheInput() {
            let scene = Scene("car", key: "car", viewModel: CarViewModel.self, factory: DefaultViewModelFactory())
            #expect(scene.inputMembers == ["make", "model"])
            #expect(scene.actions.isEmpty)
            #expect(!scene.hasSnapshot)
            #expect(Scene("films", key: "films", viewModel: FilmListViewModel.self, factory: FilmListViewModel.factory).hasSnapshot)
        }
    }
}
