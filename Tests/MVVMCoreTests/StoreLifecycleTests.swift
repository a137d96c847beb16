import MVVMCore
import MVVMJSON
import MVVMSupport
import TestSupport
import Testing

extension Core {
    /// How the store drives a view model through its lifecycle: the events it reports, the load
    /// it cancels, and the order in which it clears (AndroidX: closeables, then `onCleared()`).
    @Suite("The store's lifecycle events and clearing order", .timeLimit(.minutes(1)))
    struct StoreLifecycleTests {
        /// Records the lifecycle events a store reports, as `key event`.
        private static func recordEvents(of store: ViewModelStore) -> Recorder {
            let recorder = Recorder()
            store.observer = { change in
                switch change {
                case .event(let key, .didUpdate(let changes)): recorder.record("\(key) didUpdate \(changes)")
                case .event(let key, let event): recorder.record("\(key) \(event.name)")
                default: break
                }
            }
            return recorder
        }

        @Test("A loading view model reports didSetup, willLoad and didLoad to the store's observer")
        func eventOrderThroughTheObserver() async throws {
            let store = ViewModelStore()
            let events = Self.recordEvents(of: store)
            _ = try store.get(TripViewModel.self, key: "trip", factory: DefaultViewModelFactory())
            #expect(events.recorded == ["trip didSetup"])
            #expect(store.entry("trip")?.lifecycle.state == .setuped)
            await store.load("trip")
            #expect(events.recorded == ["trip didSetup", "trip willLoad", "trip didLoad"])
            #expect(store.entry("trip")?.lifecycle.state == .loaded)

            await store.load("trip")
            #expect(events.recorded.count == 3, "a view model loads once")
        }

        @Test("A load that changes the output is followed by one didUpdate naming what the load changed")
        func loadThatChangesTheOutput() async throws {
            let store = ViewModelStore()
            let events = Self.recordEvents(of: store)
            _ = try store.get(SuggestionsViewModel.self, key: "suggestions", factory: SuggestionsViewModel.factory())
            let before = try #require(store.entry("suggestions")).version
            await store.load("suggestions")
            #expect(
                events.recorded == ["suggestions didSetup", "suggestions willLoad", "suggestions didLoad", #"suggestions didUpdate ["wordCount"]"#])
            let entry = try #require(store.entry("suggestions"))
            let state = try JSONCoding.decode(SceneState<SuggestionsViewModel.Input, SuggestionsViewModel.Output>.self, from: entry.document)
            #expect(state.lifecycle == .loaded && state.output.wordCount == 4, "one version carries the loaded lifecycle and the loaded output")
            #expect(state.version > before)
        }

        @Test("The context's event log shows the same order, with increasing sequence numbers")
        func eventOrderThroughTheEventLog() async throws {
            let context = ContextActor(id: "events", catalogue: SuggestionsViewModel.catalogue(), dependencies: DependencyValues())
            _ = try await context.state(of: "suggestions")
            try await context.board.waitForLifecycle(.loaded, of: "suggestions")
            let events = try #require(context.events.events(after: 0)).filter { $0.key == "suggestions" }
            #expect(events.map(\.type) == ["didSetup", "willLoad", "didLoad", "didUpdate"])
            #expect(events.last?.changes == ["wordCount"])
            #expect(events.map(\.seq) == events.map(\.seq).sorted() && Set(events.map(\.seq)).count == events.count)
            #expect(context.events.lastSeq >= events.last?.seq ?? .max)
            await context.close()
        }

        @Test("Through a context, a load that never suspends publishes no loading state: nothing is published between willLoad and didLoad")
        func loadWithoutSuspensionPublishesOnce() async throws {
            let context = ContextActor(id: "once", catalogue: SuggestionsViewModel.catalogue(), dependencies: DependencyValues())
            let setup = try await context.state(of: "suggestions")
            try await context.board.waitForLifecycle(.loaded, of: "suggestions")
            let events = try #require(context.events.events(after: 0)).filter { $0.key == "suggestions" }
            let willLoad = try #require(events.first { $0.type == "willLoad" }).seq
            let didLoad = try #require(events.first { $0.type == "didLoad" }).seq
            // Versions and event numbers come from one counter: a version published between the
            // two events would have taken the number between them.
            #expect(didLoad == willLoad + 1)
            let loaded = try #require(context.board.document(.scene("suggestions")))
            #expect(loaded.version == didLoad + 1, "the loaded state is the version right after didLoad")
            #expect(setup.version < willLoad)
            await context.close()
        }

        @Test("Through a context, a load that suspends publishes its loading state while it waits")
        func suspendedLoadPublishesLoading() async throws {
            let gate = Gate()
            var dependencies = DependencyValues()
            dependencies.suggestions = FakeSuggestionService(["wedge"], gate: gate)
            let context = ContextActor(id: "waits", catalogue: SuggestionsViewModel.catalogue(), dependencies: dependencies)
            let setup = try await context.state(of: "suggestions")
            try await gate.waitForArrivals(1)
            let loading = try await context.board.waitForLifecycle(.loading, of: "suggestions")
            #expect(loading.version > setup.version)
            gate.open()
            let loaded = try await context.board.waitForLifecycle(.loaded, of: "suggestions")
            #expect(loaded.version > loading.version)
            await context.close()
        }

        @Test("A load that throws keeps the error in the state; the output stays valid and the view model is loaded")
        func failedLoad() async throws {
            struct Offline: Error {}
            struct FailingService: SuggestionService {
                func words() async throws -> [String] { throw Offline() }
            }
            let store = ViewModelStore()
            let model = try store.get(
                SuggestionsViewModel.self, key: "suggestions",
                factory: SingleViewModelFactory { _ in SuggestionsViewModel(service: FailingService()) })
            await store.load("suggestions")
            let entry = try #require(store.entry("suggestions"))
            #expect(entry.error == "Offline()")
            #expect(entry.lifecycle.state == .loaded)
            #expect(model.output == SuggestionsViewModel.Output())
            let state = try JSONCoding.decode(SceneState<SuggestionsViewModel.Input, SuggestionsViewModel.Output>.self, from: entry.document)
            #expect(state.error == "Offline()")
        }

        @Test("Unloading while loading cancels the load: the load sees CancellationError and didLoad never comes")
        func unloadingCancelsTheLoad() async throws {
            let gate = Gate()
            let report = Recorder()
            var dependencies = DependencyValues()
            dependencies.suggestions = FakeSuggestionService(["wedge"], gate: gate)
            let context = ContextActor(id: "cancel", catalogue: SuggestionsViewModel.catalogue(report: report), dependencies: dependencies)

            _ = try await context.state(of: "suggestions")
            try await gate.waitForArrivals(1)
            #expect(report.recorded == ["load started"])

            await context.clearStore()
            // The cancelled load reports what it saw, then ends in the same turn of the context's
            // actor; the next call on the actor runs after it.
            try await report.waitForEntries(2)
            _ = await context.summary()
            #expect(report.recorded == ["load started", "load saw CancellationError"])
            #expect(gate.waitingCount == 0)
            let types = try #require(context.events.events(after: 0)).filter { $0.key == "suggestions" }.map(\.type)
            #expect(types == ["didSetup", "willLoad", "willUnload", "didUnload"])
            #expect(await context.summary().entries.isEmpty)
            await context.close()
        }

        @Test("Clearing cancels the tasks, then closes the resources, then calls onCleared()")
        func clearingOrder() async throws {
            let recorder = Recorder()
            let gate = Gate()
            let store = ViewModelStore()
            _ = try store.get(
                ClearingViewModel.self, key: "list", factory: SingleViewModelFactory { _ in ClearingViewModel(name: "list", recorder: recorder) })
            let task = Task {
                await withTaskCancellationHandler {
                    _ = try? await gate.pass()
                } onCancel: {
                    recorder.record("list: task cancelled")
                }
            }
            try await gate.waitForArrivals(1)
            store.track(task, number: store.nextTaskNumber(), key: "list")
            store.addResource(RecordingResource(name: "subscription", recorder: recorder), key: "list")
            store.addResource(RecordingResource(name: "file", recorder: recorder), key: "list")
            #expect(recorder.recorded.isEmpty)

            store.clear()
            #expect(recorder.recorded == ["list: task cancelled", "subscription: closed", "file: closed", "list: onCleared"])
            #expect(task.isCancelled)
            await task.value
        }

        @Test("Clearing emits willUnload before and didUnload after the view model's own cleanup")
        func unloadEventsFrameTheCleanup() throws {
            let recorder = Recorder()
            let store = ViewModelStore()
            store.observer = { change in
                if case .event(_, let event) = change, event == .willUnload || event == .didUnload { recorder.record(event.name) }
            }
            _ = try store.get(
                ClearingViewModel.self, key: "a", factory: SingleViewModelFactory { _ in ClearingViewModel(name: "a", recorder: recorder) })
            store.addResource(RecordingResource(name: "a's resource", recorder: recorder), key: "a")
            store.clear()
            #expect(recorder.recorded == ["willUnload", "a's resource: closed", "a: onCleared", "didUnload"])
        }

        @Test("A resource added after clearing is closed at once, and a task tracked then is cancelled at once")
        func lateResourceIsClosedAtOnce() throws {
            let recorder = Recorder()
            let store = ViewModelStore()
            _ = try store.get(
                ClearingViewModel.self, key: "late", factory: SingleViewModelFactory { _ in ClearingViewModel(name: "late", recorder: recorder) })
            store.clear()
            #expect(recorder.recorded == ["late: onCleared"])

            let resource = RecordingResource(name: "late resource", recorder: recorder)
            store.addResource(resource, key: "late")
            #expect(resource.closeCount == 1)
            #expect(recorder.recorded == ["late: onCleared", "late resource: closed"])

            let task = Task<Void, Never> {}
            store.track(task, number: store.nextTaskNumber(), key: "late")
            #expect(task.isCancelled)
        }

        @Test("Each resource is closed once, even when the store is cleared again")
        func resourcesCloseOnce() throws {
            let recorder = Recorder()
            let store = ViewModelStore()
            _ = try store.get(
                ClearingViewModel.self, key: "once", factory: SingleViewModelFactory { _ in ClearingViewModel(name: "once", recorder: recorder) })
            let resource = RecordingResource(name: "resource", recorder: recorder)
            store.addResource(resource, key: "once")
            store.clear()
            store.clear()
            #expect(resource.closeCount == 1)
            #expect(recorder.recorded == ["resource: closed", "once: onCleared"])
        }
    }
}
