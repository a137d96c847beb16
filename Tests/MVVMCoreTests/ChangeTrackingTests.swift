import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// After every call into a view model the store encodes its state document; a change gives a
    /// new version from the context's counter, and a change of the output gives one `didUpdate`
    /// naming the output members that changed.
    ///
    /// The version belongs to the whole state document (input, output, lifecycle, error), not to
    /// the output alone: an input change that leaves the output identical still gives a new
    /// version, but no `didUpdate`.
    @Suite("Change tracking and versions")
    struct ChangeTrackingTests {
        /// A loaded counter in a store, with the store's changes recorded.
        private final class Harness {
            let store = ViewModelStore()
            let counter: CounterViewModel
            var updates: [[String]] = []
            var published: [UInt64] = []

            init() async throws {
                counter = try store.get(CounterViewModel.self, key: "counter", factory: DefaultViewModelFactory())
                await store.load("counter")
                store.observer = { [unowned self] change in
                    switch change {
                    case .event(_, .didUpdate(let changes)): updates.append(changes)
                    case .published(let entry): published.append(entry.version)
                    default: break
                    }
                }
            }

            var version: UInt64 {
                store.entry("counter")?.version ?? 0
            }
        }

        @Test("Each change of the output gives a new version and exactly one didUpdate naming the changed members")
        func outputChangeGivesVersionAndOneUpdate() async throws {
            let harness = try await Harness()
            let before = harness.version

            try harness.store.setInput(["count": .number(1)], key: "counter")
            #expect(harness.updates == [["count"]])
            #expect(harness.published.count == 1)
            #expect(harness.version > before)

            let afterCount = harness.version
            try harness.store.setInput(["count": .number(2), "label": .string("two")], key: "counter")
            #expect(harness.updates == [["count"], ["count", "label"]])
            #expect(harness.published.count == 2)
            #expect(harness.version > afterCount)
        }

        @Test("Setting an input that leaves the whole document identical gives neither a version nor an event")
        func identicalDocumentGivesNothing() async throws {
            let harness = try await Harness()
            try harness.store.setInput(["count": .number(5), "note": .string("hi")], key: "counter")
            let version = harness.version
            let document = harness.store.entry("counter")?.document
            harness.updates.removeAll()
            harness.published.removeAll()

            try harness.store.setInput(["count": .number(5)], key: "counter")
            try harness.store.setInput([:], key: "counter")
            harness.store.refresh("counter")
            #expect(harness.version == version)
            #expect(harness.store.entry("counter")?.document == document)
            #expect(harness.updates.isEmpty)
            #expect(harness.published.isEmpty)
        }

        @Test("An input change that leaves the output identical gives a new version but no didUpdate")
        func inputOnlyChangeGivesVersionWithoutUpdate() async throws {
            let harness = try await Harness()
            let before = harness.version
            try harness.store.setInput(["note": .string("only the input changes")], key: "counter")
            #expect(harness.version > before, "the state document holds the input, so it has a new version")
            #expect(harness.published == [harness.version])
            #expect(harness.updates.isEmpty, "the output did not change")
            let state = try JSONCoding.decode(
                SceneState<CounterViewModel.Input, CounterViewModel.Output>.self, from: #require(harness.store.entry("counter")).document)
            #expect(state.input.note == "only the input changes")
            #expect(state.version == harness.version)
        }

        @Test("Before the view model is loaded an output change gives a new version, but didUpdate only comes once loaded")
        func updatesComeOnlyOnceLoaded() throws {
            let store = ViewModelStore()
            var events: [String] = []
            store.observer = { change in
                if case .event(_, let event) = change { events.append(event.name) }
            }
            _ = try store.get(CounterViewModel.self, key: "counter", factory: DefaultViewModelFactory())
            let before = try #require(store.entry("counter")).version
            try store.setInput(["count": .number(1)], key: "counter")
            #expect(try #require(store.entry("counter")).version > before)
            #expect(events == ["didSetup"], "the lifecycle allows updates only in the loaded state")
        }

        @Test("Versions come from one counter per context and never go backwards, even when a key's view model is made again")
        func versionsNeverGoBackwards() async throws {
            let catalogue = SceneCatalogue(
                scenes: [Scene("counter", key: "counter", viewModel: CounterViewModel.self, factory: DefaultViewModelFactory())], rootKey: "counter")
            let context = ContextActor(id: "versions", catalogue: catalogue, dependencies: DependencyValues())
            var versions: [UInt64] = []
            versions.append(try await context.state(of: "counter").version)
            try await context.board.waitForLifecycle(.loaded, of: "counter")
            versions.append(try await context.setInput(["count": .number(1)], key: "counter").version)
            versions.append(try await context.setInput(["count": .number(2)], key: "counter").version)

            await context.clearStore()
            let remade = try await context.state(of: "counter")
            versions.append(remade.version)
            let state = try SceneState<CounterViewModel.Input, CounterViewModel.Output>(remade)
            #expect(state.output.count == 0, "a new view model starts from its initial output")
            try await context.board.waitForLifecycle(.loaded, of: "counter")
            versions.append(try await context.setInput(["count": .number(1)], key: "counter").version)

            #expect(versions == versions.sorted())
            #expect(Set(versions).count == versions.count, "every version is new")
            // Event numbers come from the same counter.
            let seqs = try #require(context.events.events(after: 0)).map(\.seq)
            #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
            await context.close()
        }

        @Test("A store made with a context's counter numbers its versions after the counter's current value")
        func sharedCounter() throws {
            let counter = VersionCounter(start: 100)
            let store = ViewModelStore(counter: counter)
            _ = try store.get(CounterViewModel.self, key: "counter", factory: DefaultViewModelFactory())
            let first = try #require(store.entry("counter")).version
            #expect(first > 100)
            #expect(counter.current == first)
            store.clear()
            _ = try store.get(CounterViewModel.self, key: "counter", factory: DefaultViewModelFactory())
            #expect(try #require(store.entry("counter")).version > first)
        }
    }
}
