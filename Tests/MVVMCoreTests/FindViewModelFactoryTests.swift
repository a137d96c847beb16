import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// Seed 000's "more complicated" factory, ported: the search results bind to the find
    /// screen's predicate of the same context, through the factory's `extras.context`.
    @Suite("The FindViewModelFactory of seed 000")
    struct FindViewModelFactoryTests {
        typealias ResultsState = SceneState<EmptyInput, SearchGlobalViewModel.Output>

        @Test("Setting the find screen's predicate updates the search results' published state")
        func predicateDrivesResults() async throws {
            let context = ContextActor(id: "find", catalogue: FindViewModelFactory.catalogue(), dependencies: DependencyValues())
            let initial = try ResultsState(await context.state(of: "find/results"))
            #expect(initial.output == SearchGlobalViewModel.Output(predicate: "", results: SearchGlobalViewModel.planets))

            _ = try await context.setInput(["predicate": .string("o")], key: "find")
            let filtered = try ResultsState(of: "find/results", on: context.board)
            #expect(
                filtered.output
                    == SearchGlobalViewModel.Output(
                        predicate: "o", results: ["Dagobah", "Endor", "Hoth", "Naboo", "Tatooine"].filter { $0.contains("o") }))
            #expect(filtered.version > initial.version)

            _ = try await context.setInput(["predicate": .string("HO")], key: "find")
            let hoth = try ResultsState(of: "find/results", on: context.board)
            #expect(hoth.output.results == ["Hoth"])
            #expect(hoth.version > filtered.version)
            await context.close()
        }

        @Test("Making the results first also makes the find view model they bind to, in the same context")
        func resultsMakeFind() async throws {
            let context = ContextActor(id: "find-first", catalogue: FindViewModelFactory.catalogue(), dependencies: DependencyValues())
            _ = try await context.state(of: "find/results")
            let keys = await context.summary().entries.map(\.key)
            #expect(Set(keys) == ["find", "find/results"])
            let subscribers = await context.withContext { try? $0.viewModel(FindViewModel.self, key: "find").searchPredicate.subscriberCount }
            #expect(subscribers == 1)
            await context.close()
        }

        @Test("Each context binds its own results to its own find view model")
        func contextsAreIndependent() async throws {
            let one = ContextActor(id: "one", catalogue: FindViewModelFactory.catalogue(), dependencies: DependencyValues())
            let two = ContextActor(id: "two", catalogue: FindViewModelFactory.catalogue(), dependencies: DependencyValues())
            _ = try await one.state(of: "find/results")
            _ = try await two.state(of: "find/results")
            _ = try await one.setInput(["predicate": .string("naboo")], key: "find")
            #expect(try ResultsState(of: "find/results", on: one.board).output.results == ["Naboo"])
            #expect(try ResultsState(of: "find/results", on: two.board).output.results == SearchGlobalViewModel.planets)
            await one.close()
            await two.close()
        }

        @Test("The subscription the factory handed to the store is closed when the results are cleared")
        func clearingUnsubscribes() throws {
            let context = ViewModelContext(id: "unsubscribe", catalogue: FindViewModelFactory.catalogue())
            let results = try context.viewModel(SearchGlobalViewModel.self, key: "find/results")
            let find = try context.viewModel(FindViewModel.self, key: "find")
            #expect(find.searchPredicate.subscriberCount == 1)
            context.store.remove("find/results")
            #expect(find.searchPredicate.subscriberCount == 0)
            try context.setInput(["predicate": .string("hoth")], key: "find")
            #expect(results.output.predicate == "", "a cleared view model no longer follows the predicate")
        }

        @Test("The same composite makes the other scenes of the feature")
        func otherScenes() throws {
            let context = ViewModelContext(id: "others", catalogue: FindViewModelFactory.catalogue())
            #expect(try context.viewModel(BrandListViewModel.self, key: "brands").output.brands == ["Incom", "Kuat", "Sienar"])
            #expect(try context.viewModel(ProductCategoryListViewModel.self, key: "product-categories").output.categories == ["droids", "ships"])
        }

        @Test("Outside a context the results cannot be made, and say why")
        func resultsNeedAContext() {
            let error = #expect(throws: ViewModelStoreError.noContext(key: "find/results")) {
                try ViewModelStore().get(SearchGlobalViewModel.self, key: "find/results", factory: FindViewModelFactory())
            }
            #expect(error?.description == "the view model under 'find/results' can only be made inside a context")
        }
    }
}
