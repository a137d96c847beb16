import MVVMCore
import MVVMJSON
import MVVMSupport
import TestSupport
import Testing

extension Core {
    /// The store caches view models by key (seed 000, AndroidX's `ViewModelStore`).
    @Suite("The view model store")
    struct ViewModelStoreTests {
        @Test("Getting the same key again returns the cached instance, not a new one")
        func sameKeySameInstance() throws {
            let store = ViewModelStore()
            let calls = Tally()
            let factory = SingleViewModelFactory { _ in
                calls.increment()
                return TripViewModel()
            }
            let first = try store.get(TripViewModel.self, key: "trip", factory: factory)
            let second = try store.get(TripViewModel.self, key: "trip", factory: factory)
            #expect(first === second)
            #expect(calls.value == 1)
            #expect(store.keys == ["trip"])

            let other = try store.get(TripViewModel.self, key: "trip/2", factory: factory)
            #expect(other !== first, "another key is another view model")
            #expect(calls.value == 2)
            #expect(store.keys == ["trip", "trip/2"])
        }

        @Test("A change made through one reference is seen through the other (sharing between views)")
        func cachedInstanceSharesState() throws {
            let store = ViewModelStore()
            let one = try store.get(TripViewModel.self, key: "trip", factory: DefaultViewModelFactory())
            try store.setInput(["from": .string("Lyon"), "to": .string("Nice")], key: "trip")
            let two = try store.get(TripViewModel.self, key: "trip", factory: DefaultViewModelFactory())
            #expect(two.output.kilometres == 470)
            #expect(one === two)
        }

        @Test("Many concurrent reads of one key in one context make exactly one view model")
        func getOrCreateIsAtomic() async throws {
            let calls = Tally()
            let factory = SingleViewModelFactory { _ in
                calls.increment()
                return TripViewModel()
            }
            let catalogue = SceneCatalogue(scenes: [Scene("trip", key: "trip", viewModel: TripViewModel.self, factory: factory)], rootKey: "trip")
            let context = ContextActor(id: "atomic", catalogue: catalogue, dependencies: DependencyValues())

            let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            _ = try await context.state(of: "trip")
                        }
                        return try await context.withContext { ObjectIdentifier(try $0.viewModel(TripViewModel.self, key: "trip")) }
                    }
                }
                return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
            #expect(identities.count == 1)
            #expect(calls.value == 1)
            #expect(await context.summary().entries.map(\.key) == ["trip"])
            await context.close()
        }

        @Test("Asking for another type under a key is an error, and the stored view model stays")
        func anotherTypeUnderAKeyIsAnError() throws {
            let store = ViewModelStore()
            let trip = try store.get(TripViewModel.self, key: "vehicle", factory: DefaultViewModelFactory())
            #expect(
                throws: ViewModelStoreError.typeMismatch(
                    key: "vehicle", stored: String(reflecting: TripViewModel.self), requested: String(reflecting: BikeViewModel.self))
            ) {
                try store.get(BikeViewModel.self, key: "vehicle", factory: DefaultViewModelFactory())
            }
            #expect(store.existing(TripViewModel.self, key: "vehicle") === trip)
            #expect(store.existing(BikeViewModel.self, key: "vehicle") == nil)
            #expect(store.keys == ["vehicle"])
        }

        @Test("The type-mismatch error says which key holds what")
        func typeMismatchDescription() {
            let error = ViewModelStoreError.typeMismatch(key: "vehicle", stored: "App.Car", requested: "App.Bike")
            #expect(error.description == "the key 'vehicle' holds a App.Car, not a App.Bike")
            #expect(!error.isUnknownKey)
            #expect(ViewModelStoreError.unknownKey("nowhere").isUnknownKey)
        }

        @Test("clear() unloads every view model, removes them all, and the next get makes a new one")
        func clearUnloadsAndRemovesAll() async throws {
            let store = ViewModelStore()
            var events: [String] = []
            store.observer = { change in
                if case .event(let key, let event) = change { events.append("\(key) \(event.name)") }
            }
            let trip = try store.get(TripViewModel.self, key: "trip", factory: DefaultViewModelFactory())
            _ = try store.get(BikeViewModel.self, key: "bike", factory: DefaultViewModelFactory())
            await store.load("trip")
            events.removeAll()

            store.clear()
            #expect(store.keys.isEmpty)
            #expect(store.allEntries.isEmpty)
            #expect(store.entry("trip") == nil && store.entry("bike") == nil)
            #expect(events == ["trip willUnload", "trip didUnload", "bike willUnload", "bike didUnload"], "in the order they were made")

            let newCar = try store.get(TripViewModel.self, key: "trip", factory: DefaultViewModelFactory())
            #expect(newCar !== trip)
            #expect(store.entry("trip")?.lifecycle.state == .setuped)
        }

        @Test("remove(_:) unloads and removes one key only")
        func removeOneKey() throws {
            let store = ViewModelStore()
            var removed: [String] = []
            store.observer = { change in
                if case .removed(let entry) = change { removed.append(entry.key) }
            }
            _ = try store.get(TripViewModel.self, key: "trip", factory: DefaultViewModelFactory())
            _ = try store.get(BikeViewModel.self, key: "bike", factory: DefaultViewModelFactory())
            store.remove("trip")
            store.remove("not there")
            #expect(store.keys == ["bike"])
            #expect(removed == ["trip"])
        }
    }
}
