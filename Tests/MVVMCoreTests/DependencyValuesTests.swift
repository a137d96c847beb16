import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// Services reach view models through `DependencyValues`, looked up by a `DependencyKey`;
    /// a factory reads them from its extras and a test swaps in a fake.
    @Suite("Dependencies")
    struct DependencyValuesTests {
        @Test("A key that was never set answers its default value")
        func defaultValue() async throws {
            let values = DependencyValues()
            #expect(values.suggestions is StaticSuggestionService)
            #expect(try await values.suggestions.words() == ["leia", "luke", "lando", "han"])
        }

        @Test("A value set under a key replaces the default, in that copy only")
        func settingAValue() async throws {
            let original = DependencyValues()
            var swapped = original
            swapped.suggestions = StaticSuggestionService(list: ["chewie"])
            #expect(try await swapped.suggestions.words() == ["chewie"])
            #expect(try await original.suggestions.words() == ["leia", "luke", "lando", "han"], "DependencyValues is a value")
        }

        @Test("A factory reads its service from the extras, so a test can swap in a fake")
        func factoryUsesTheFake() async throws {
            let fake = FakeSuggestionService(["obi-wan", "owen"])
            var dependencies = DependencyValues()
            dependencies.suggestions = fake
            let store = ViewModelStore()
            let model = try store.get(
                SuggestionsViewModel.self, key: "suggestions", factory: SuggestionsViewModel.factory(),
                extras: CreationExtras(key: "suggestions", dependencies: dependencies))
            await store.load("suggestions")
            try store.setInput(["query": .string("o")], key: "suggestions")
            #expect(model.output.suggestions == ["obi-wan", "owen"])
            #expect(await fake.calls == 1, "the view model used the fake, once")
        }

        @Test("A context hands its dependencies to every factory of its scenes")
        func contextPassesItsDependencies() async throws {
            let fake = FakeSuggestionService(["ackbar"])
            var dependencies = DependencyValues()
            dependencies.suggestions = fake
            let context = ContextActor(id: "dependencies", catalogue: SuggestionsViewModel.catalogue(), dependencies: dependencies)
            _ = try await context.state(of: "suggestions")
            let loaded = try SceneState<SuggestionsViewModel.Input, SuggestionsViewModel.Output>(
                await context.board.waitForLifecycle(.loaded, of: "suggestions"))
            #expect(loaded.output.wordCount == 1)
            #expect(await fake.calls == 1)
            await context.close()
        }
    }
}
