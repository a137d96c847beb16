import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// The provider hands out typed view models from a store, made by one factory
    /// (seed 000's `ViewModelProviders.provider(for:with:)`, AndroidX's `ViewModelProvider`).
    @Suite("The view model provider")
    struct ViewModelProviderTests {
        @Test("get() uses the module-qualified type name as the default key")
        func defaultKeyIsTheQualifiedTypeName() throws {
            let provider = ViewModelProvider(store: ViewModelStore())
            let trip: TripViewModel = try provider.get()
            #expect(ViewModelProvider.defaultKey(for: TripViewModel.self) == "MVVMCoreTests.Core.TripViewModel")
            #expect(provider.store.keys == ["MVVMCoreTests.Core.TripViewModel"])
            #expect(provider.store.existing(TripViewModel.self, key: "MVVMCoreTests.Core.TripViewModel") === trip)
            #expect(try provider.get(TripViewModel.self) === trip, "asking again returns the cached instance")
        }

        @Test("get(key:) makes a parameterised view model per key, typed as asked")
        func parameterisedKeys() throws {
            let provider = ViewModelProvider(store: ViewModelStore(), factory: FilmViewModel.factory)
            let empire: FilmViewModel = try provider.get(key: "film/2")
            let hope = try provider.get(FilmViewModel.self, key: "film/1")
            #expect(empire.output == FilmViewModel.Output(id: 2, title: "The Empire Strikes Back"))
            #expect(hope.output.id == 1)
            #expect(try provider.get(FilmViewModel.self, key: "film/2") === empire)
            #expect(provider.store.keys == ["film/2", "film/1"])
        }

        @Test("A type that no factory makes is a clear noFactory error, and nothing is stored")
        func noFactoryIsAClearError() throws {
            let provider = ViewModelProvider(store: ViewModelStore(), factory: DefaultViewModelFactory())
            let error = #expect(throws: ViewModelStoreError.noFactory(type: "MVVMCoreTests.Core.FilmViewModel", key: "film/2")) {
                try provider.get(FilmViewModel.self, key: "film/2")
            }
            #expect(error?.description == "no factory makes MVVMCoreTests.Core.FilmViewModel (key 'film/2')")
            #expect(provider.store.keys.isEmpty)
        }

        @Test("A provider for a context passes the context and its dependencies to the factory")
        func providerForAContext() throws {
            let service = FakeSuggestionService(["yoda"])
            var dependencies = DependencyValues()
            dependencies.suggestions = service
            let context = ViewModelContext(id: "provider", catalogue: SceneCatalogue(scenes: [], rootKey: "none"), dependencies: dependencies)
            let seen = Recorder()
            let factory = SingleViewModelFactory { extras in
                seen.record("context \(extras.context?.id ?? "none")")
                seen.record("fake service \(extras.dependencies.suggestions is FakeSuggestionService)")
                return SuggestionsViewModel(service: extras.dependencies.suggestions)
            }
            let provider = ViewModelProvider(for: context, factory: factory)
            let model: SuggestionsViewModel = try provider.get()
            #expect(seen.recorded == ["context provider", "fake service true"])
            #expect(context.store.existing(SuggestionsViewModel.self, key: "MVVMCoreTests.Core.SuggestionsViewModel") === model)
        }
    }
}
