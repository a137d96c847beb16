import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// A container scene declares slots; its `EmbedderCoordinator` embeds child scenes in them
    /// (MVVMKit's embedding).
    @Suite("Embedding in a container's slots")
    struct EmbeddingTests {
        private func makeContext() throws -> ViewModelContext {
            let context = ViewModelContext(id: "embedding", catalogue: NavigationFixtures.catalogue())
            try context.navigator.setRoot("tabs")
            return context
        }

        @Test("The embedder coordinator embeds a child in a slot of its container")
        func embedInASlot() throws {
            let context = try makeContext()
            let tabs = try context.viewModel(TabsViewModel.self, key: "tabs")
            let before = context.navigator.state.version
            try tabs.coordinator.embed("film/1", in: "main")

            let root = try #require(context.navigator.state.stack.first)
            #expect(root.slots["main"]?.key == "film/1")
            #expect(root.slots["main"]?.presentation == .embedded)
            #expect(context.navigator.state.shownKeys == ["tabs", "film/1"])
            #expect(context.navigator.state.version > before)
            let event = try #require(context.events.events(after: 0)?.last)
            #expect(event.type == "didEmbed" && event.key == "film/1" && event.slot == "main")
        }

        @Test("Embedding in an occupied slot replaces the child, which leaves the store")
        func replacingAChild() throws {
            let context = try makeContext()
            let tabs = try context.viewModel(TabsViewModel.self, key: "tabs")
            try tabs.coordinator.embed("film/1", in: "main")
            try tabs.coordinator.embed("film/3", in: "side")
            try tabs.coordinator.embed("film/2", in: "main")

            let root = try #require(context.navigator.state.stack.first)
            #expect(root.slots.mapValues(\.key) == ["main": "film/2", "side": "film/3"])
            #expect(context.store.entry("film/1") == nil)
            #expect(context.store.entry("film/3") != nil)
        }

        @Test("Embedding in a slot the container does not declare throws unknownSlot")
        func unknownSlot() throws {
            let context = try makeContext()
            let tabs = try context.viewModel(TabsViewModel.self, key: "tabs")
            let version = context.navigator.state.version
            #expect(throws: NavigationError.unknownSlot(container: "tabs", slot: "footer")) {
                try tabs.coordinator.embed("film/1", in: "footer")
            }
            #expect(context.navigator.state.version == version)
            #expect(context.store.entry("film/1") == nil, "nothing was made")
        }

        @Test("Embedding in a container that is not shown throws containerNotShown, and makes no view model")
        func containerNotShown() throws {
            let context = ViewModelContext(id: "embedding", catalogue: NavigationFixtures.catalogue())
            try context.navigator.setRoot("home")
            let version = context.navigator.state.version
            #expect(throws: NavigationError.containerNotShown("tabs")) {
                try context.navigator.embed("film/1", in: "main", of: "tabs")
            }
            #expect(throws: NavigationError.containerNotShown("planet")) {
                try context.navigator.embed("film/1", in: "main", of: "planet")
            }
            #expect(context.store.keys == ["home"], "the child is not made when the step fails")
            #expect(context.navigator.state.version == version)
        }

        @Test("prepare makes a scene's view model without showing it, and throws for a key no scene takes")
        func prepare() throws {
            let context = ViewModelContext(id: "embedding", catalogue: NavigationFixtures.catalogue())
            try context.navigator.setRoot("home")
            let version = context.navigator.state.version
            try context.navigator.prepare("film/1")
            #expect(context.store.keys == ["home", "film/1"])
            #expect(context.navigator.state.version == version, "nothing is shown")
            #expect(throws: ViewModelStoreError.unknownKey("jabba")) { try context.navigator.prepare("jabba") }
            #expect(context.store.keys == ["home", "film/1"])
        }

        @Test("Popping a container takes its embedded children out of the store with it")
        func poppingTheContainer() throws {
            let context = ViewModelContext(id: "embedding", catalogue: NavigationFixtures.catalogue())
            try context.navigator.setRoot("home")
            try context.navigator.push("tabs")
            try context.navigator.embed("film/1", in: "main", of: "tabs")
            try context.navigator.pop()
            #expect(context.store.keys == ["home"])
        }

        @Test("A container's view model embeds through its coordinator when the client sends an action")
        func embeddingFromAnAction() async throws {
            let context = ContextActor(id: "embed-action", catalogue: NavigationFixtures.catalogue(), dependencies: DependencyValues())
            try await context.withContext { try $0.navigator.setRoot("tabs") }
            let result = try await context.perform(action: "show", arguments: ["film": .number(3), "slot": .string("side")], key: "tabs")
            #expect(result.navigated)
            #expect(await context.summary().navigation.stack.first?.slots["side"]?.key == "film/3")
            await #expect(throws: NavigationError.unknownSlot(container: "tabs", slot: "top")) {
                try await context.perform(action: "show", arguments: ["film": .number(1), "slot": .string("top")], key: "tabs")
            }
            await context.close()
        }
    }
}
