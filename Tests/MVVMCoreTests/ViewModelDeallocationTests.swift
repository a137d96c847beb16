import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// View models live as long as their context (seed 000): when a context is closed and released,
    /// its view models, their coordinators and their store entries are deallocated.
    @Suite("Deallocation with the context", .timeLimit(.minutes(1)))
    struct ViewModelDeallocationTests {
        /// Makes a context, shows three scenes (one with a coordinator), keeps weak references to
        /// what it made, waits until every load ended, closes the context and drops it.
        private func makeUseAndRelease(_ references: WeakReferences) async throws {
            let context = ContextActor(id: "short-lived", catalogue: NavigationFixtures.catalogue(), dependencies: DependencyValues())
            try await context.showRoot()
            _ = try await context.perform(action: "openFilm", arguments: ["id": .number(2)], key: "home")
            _ = try await context.state(of: "settings")
            try await context.withContext { context in
                let home = try context.viewModel(HomeViewModel.self, key: "home")
                references.add(home, name: "home view model")
                references.add(home.coordinator, name: "home coordinator")
                references.add(try context.viewModel(FilmViewModel.self, key: "film/2"), name: "film view model")
                references.add(try context.viewModel(SettingsViewModel.self, key: "settings"), name: "settings view model")
                for entry in context.store.allEntries { references.add(entry, name: "entry \(entry.key)") }
            }
            for key in ["home", "film/2", "settings"] {
                try await context.board.waitForLifecycle(.loaded, of: key)
            }
            #expect(references.alive.count == references.count, "everything is alive while the context is")
            await context.close()
        }

        @Test("When a context is closed and released, weak references to its view models and coordinators become nil")
        func closedContextReleasesItsViewModels() async throws {
            let references = WeakReferences()
            try await makeUseAndRelease(references)
            #expect(references.count == 7)
            #expect(references.alive == [])
        }

        @Test("A closed context's board refuses new waiters")
        func closedContextRefusesWaiters() async throws {
            let context = ContextActor(id: "closing", catalogue: NavigationFixtures.catalogue(), dependencies: DependencyValues())
            _ = try await context.state(of: "settings")
            await context.close()
            #expect(context.board.isClosed)
            #expect(await context.summary().entries.isEmpty)
            guard case .closed = await context.board.next(after: 0, on: .scene("settings"), timeout: .seconds(30)) else {
                Issue.record("a closed board answers .closed")
                return
            }
        }

        /// The census counts every store entry in the process, and tests run in parallel, so one
        /// attempt can be disturbed by another test making or releasing view models at the same
        /// moment. The test therefore repeats the experiment until one attempt ran undisturbed:
        /// the count went up by exactly the entries made and back down to where it started.
        @Test("ViewModelCensus.live goes up by the view models a context makes and drops back when it is released")
        func censusDropsBack() async throws {
            var attempts: [(before: Int, during: Int, after: Int)] = []
            for _ in 0..<50 {
                let before = ViewModelCensus.live
                let references = WeakReferences()
                let during = try await censusWhileAlive(references)
                let after = ViewModelCensus.live
                #expect(references.alive == [])
                attempts.append((before, during, after))
                if during == before + 3 && after == before { return }
            }
            Issue.record("no attempt saw the census rise by 3 and drop back: \(attempts.prefix(5))")
        }

        private func censusWhileAlive(_ references: WeakReferences) async throws -> Int {
            let context = ContextActor(id: "census", catalogue: NavigationFixtures.catalogue(), dependencies: DependencyValues())
            for key in ["settings", "film/1", "film/2"] {
                _ = try await context.state(of: key)
                try await context.board.waitForLifecycle(.loaded, of: key)
            }
            let during = ViewModelCensus.live
            await context.withContext { context in
                for entry in context.store.allEntries { references.add(entry, name: "entry \(entry.key)") }
            }
            await context.close()
            return during
        }
    }
}
