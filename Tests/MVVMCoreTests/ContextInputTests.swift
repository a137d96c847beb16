import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// A view model driven as a client drives it: through its context, by JSON input, reading
    /// its state document.
    @Suite("A view model in a context, driven by JSON input")
    struct ContextInputTests {
        typealias State = SceneState<TripViewModel.Input, TripViewModel.Output>

        private func makeContext() -> ContextActor {
            let catalogue = SceneCatalogue(
                scenes: [Scene("trip", key: "trip", viewModel: TripViewModel.self, factory: DefaultViewModelFactory())], rootKey: "trip")
            return ContextActor(id: "trip", catalogue: catalogue, dependencies: DependencyValues())
        }

        @Test("The outputs are 0 and 0 before any input")
        func definedBeforeInput() async throws {
            let context = makeContext()
            let state = try State(await context.state(of: "trip"))
            #expect(state.output == TripViewModel.Output(kilometres: 0, hours: 0))
            #expect(state.key == "trip" && state.scene == "trip")
            #expect(state.error == nil)
            await context.close()
        }

        @Test("Paris to Rome is 1,420 km in 14 hours; any other trip 470 km in 5")
        func outputsFollowInputs() async throws {
            let context = makeContext()
            _ = try await context.state(of: "trip")
            try await context.board.waitForLifecycle(.loaded, of: "trip")
            let rome = try State(await context.setInput(["from": .string("Paris"), "to": .string("Rome")], key: "trip"))
            #expect(rome.output == TripViewModel.Output(kilometres: 1420, hours: 14))
            let nice = try State(await context.setInput(["from": .string("Lyon"), "to": .string("Nice")], key: "trip"))
            #expect(nice.output == TripViewModel.Output(kilometres: 470, hours: 5))
            let cleared = try State(await context.setInput(["to": .null], key: "trip"))
            #expect(cleared.output == TripViewModel.Output(kilometres: 0, hours: 0), "without a model the outputs go back to 0")
            #expect(cleared.input.from == "Lyon" && cleared.input.to == nil)

            let updates = try #require(context.events.events(after: 0)).filter { $0.type == "didUpdate" }
            #expect(updates.map(\.changes) == [["hours", "kilometres"], ["hours", "kilometres"], ["hours", "kilometres"]])
            await context.close()
        }

        @Test("The scene's catalogue entry lists the trip's input members")
        func sceneDescribesTheInput() {
            let scene = Scene("trip", key: "trip", viewModel: TripViewModel.self, factory: DefaultViewModelFactory())
            #expect(scene.inputMembers == ["from", "to"])
            #expect(scene.actions.isEmpty)
            #expect(!scene.hasSnapshot)
            #expect(Scene("films", key: "films", viewModel: FilmListViewModel.self, factory: FilmListViewModel.factory).hasSnapshot)
        }
    }
}
