import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// Factories make view models (seed 000's `ViewModelFactory`, `InitializableViewModelFactory`,
    /// `SingleViewModelFactory` and `CompositeViewModelFactory`); what varies per creation arrives
    /// in the `CreationExtras`.
    @Suite("View model factories and creation extras")
    struct ViewModelFactoryTests {
        @Test("The default factory makes every initializable view model and nothing else")
        func defaultFactory() throws {
            let factory = DefaultViewModelFactory()
            let trip = try factory.create(TripViewModel.self, extras: CreationExtras(key: "trip"))
            #expect(trip?.output == TripViewModel.Output())
            #expect(try factory.create(BikeViewModel.self, extras: CreationExtras(key: "bike"))?.output.madeBy == "init()")
            #expect(try factory.create(FilmViewModel.self, extras: CreationExtras(key: "film/1")) == nil, "a film needs an id")
        }

        @Test("A single factory makes its one type from a closure and answers nil for others")
        func singleFactory() throws {
            let factory = SingleViewModelFactory { _ in BikeViewModel(madeBy: "single") }
            #expect(try factory.create(BikeViewModel.self, extras: CreationExtras(key: "bike"))?.output.madeBy == "single")
            #expect(try factory.create(TripViewModel.self, extras: CreationExtras(key: "trip")) == nil)
        }

        @Test("An error thrown while making comes out of the store unchanged")
        func factoryErrorsPropagate() {
            let store = ViewModelStore()
            #expect(throws: FilmViewModel.BadKey(key: "film/two")) {
                try store.get(FilmViewModel.self, key: "film/two", factory: FilmViewModel.factory)
            }
            #expect(store.keys.isEmpty)
        }

        @Test("In a composite factory the first factory that makes the type wins")
        func compositeFirstMatchWins() throws {
            var composite = CompositeViewModelFactory()
            composite.add { _ in BikeViewModel(madeBy: "first") }
            composite.add { _ in BikeViewModel(madeBy: "second") }
            composite.add(DefaultViewModelFactory())
            composite.add(FilmViewModel.factory)

            #expect(try composite.create(BikeViewModel.self, extras: CreationExtras(key: "bike"))?.output.madeBy == "first")
            #expect(try composite.create(TripViewModel.self, extras: CreationExtras(key: "trip")) != nil, "found further down")
            #expect(try composite.create(FilmViewModel.self, extras: CreationExtras(key: "film/3"))?.output.id == 3)
            #expect(try composite.create(SuggestionsViewModel.self, extras: CreationExtras(key: "s")) == nil, "no factory makes it")
        }

        @Test("A composite can be built from an array, tried in order")
        func compositeFromArray() throws {
            let composite = CompositeViewModelFactory([
                SingleViewModelFactory { _ in BikeViewModel(madeBy: "array") },
                DefaultViewModelFactory(),
            ])
            #expect(try composite.create(BikeViewModel.self, extras: CreationExtras(key: "bike"))?.output.madeBy == "array")
        }

        @Test("The extras carry the key, the parameters parsed from it, the context and the dependencies")
        func extrasCarryWhatVariesPerCreation() throws {
            var dependencies = DependencyValues()
            dependencies.suggestions = StaticSuggestionService(list: ["r2d2"])
            let seen = Recorder()
            let factory = SingleViewModelFactory { extras in
                seen.record("key \(extras.key)")
                seen.record("parameters \(extras.parameters)")
                seen.record("id \(extras.intParameter("id").map(String.init) ?? "none")")
                seen.record("context \(extras.context?.id ?? "none")")
                seen.record("words \((extras.dependencies.suggestions as? StaticSuggestionService)?.list ?? [])")
                return try FilmViewModel.factory.create(FilmViewModel.self, extras: extras)!
            }
            let catalogue = SceneCatalogue(
                scenes: [Scene("film", key: "film/{id}", viewModel: FilmViewModel.self, factory: factory)], rootKey: "film/1")
            let context = ViewModelContext(id: "extras", catalogue: catalogue, dependencies: dependencies)

            let film = try context.viewModel(FilmViewModel.self, key: "film/3")
            #expect(film.output.id == 3)
            #expect(seen.recorded == ["key film/3", #"parameters ["id": "3"]"#, "id 3", "context extras", #"words ["r2d2"]"#])
            #expect(context.store.entry("film/3")?.scene == "film")
        }

        /// A typed extra of the test's own: the theme a factory should give a view model.
        struct Theme: Equatable {
            var name: String
        }

        @Test("A custom typed extra set under a CreationExtraKey reaches the factory")
        func customTypedExtra() throws {
            var extras = CreationExtras(key: "bike")
            #expect(extras[CreationExtraKey<Theme>()] == nil)
            extras[CreationExtraKey<Theme>()] = Theme(name: "dark side")
            #expect(extras[CreationExtraKey<Theme>()] == Theme(name: "dark side"))
            #expect(extras[CreationExtraKey<Int>()] == nil, "one key per value type")

            let factory = SingleViewModelFactory { extras in
                BikeViewModel(madeBy: extras[CreationExtraKey<Theme>()]?.name ?? "no theme")
            }
            let store = ViewModelStore()
            let bike = try store.get(BikeViewModel.self, key: "bike", factory: factory, extras: extras)
            #expect(bike.output.madeBy == "dark side")
        }

        @Test("A resource a factory hands over in the extras is closed when its view model is cleared")
        func handedOverResourceClosesWithTheViewModel() throws {
            let recorder = Recorder()
            let factory = SingleViewModelFactory { extras in
                extras.addResource(RecordingResource(name: "subscription", recorder: recorder))
                return ClearingViewModel(name: "results", recorder: recorder)
            }
            let store = ViewModelStore()
            _ = try store.get(ClearingViewModel.self, key: "results", factory: factory)
            #expect(recorder.recorded.isEmpty)
            store.remove("results")
            #expect(recorder.recorded == ["subscription: closed", "results: onCleared"])
        }

        @Test("A resource a factory hands over is closed at once when the creation fails")
        func handedOverResourceClosesOnFailure() {
            struct Refused: Error {}
            let recorder = Recorder()
            let factory = SingleViewModelFactory<ClearingViewModel> { extras in
                extras.addResource(RecordingResource(name: "subscription", recorder: recorder))
                throw Refused()
            }
            let store = ViewModelStore()
            #expect(throws: Refused.self) { try store.get(ClearingViewModel.self, key: "results", factory: factory) }
            #expect(recorder.recorded == ["subscription: closed"])
            #expect(store.keys.isEmpty)
        }

        @Test("Without extras, the store gives the factory extras holding just the key")
        func storeMakesDefaultExtras() throws {
            let seen = Recorder()
            let factory = SingleViewModelFactory { extras in
                seen.record("\(extras.key) \(extras.parameters.isEmpty) \(extras.context == nil)")
                return TripViewModel()
            }
            _ = try ViewModelStore().get(TripViewModel.self, key: "trip", factory: factory)
            #expect(seen.recorded == ["trip true true"])
        }
    }
}
