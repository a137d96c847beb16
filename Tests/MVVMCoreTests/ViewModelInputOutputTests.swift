import Foundation
import MVVMCore
import MVVMJSON
import MVVMSupport
import TestSupport
import Testing

extension Core {
    /// A view model has a typed, Codable input and output (seed 001: query in, suggestions out);
    /// its output is defined from the moment it exists; inputs are latest-wins, even while its
    /// load is suspended.
    @Suite("View models with typed input and output", .timeLimit(.minutes(1)))
    struct ViewModelInputOutputTests {
        @Test("The output is defined right after creation, before any input or load")
        func outputDefinedAfterCreation() throws {
            let suggestions = SuggestionsViewModel(service: StaticSuggestionService())
            #expect(suggestions.output == SuggestionsViewModel.Output(query: "", suggestions: [], wordCount: 0))

            let store = ViewModelStore()
            let trip = try store.get(TripViewModel.self, key: "trip", factory: DefaultViewModelFactory())
            #expect(trip.output == TripViewModel.Output(kilometres: 0, hours: 0))
            // The first state document already holds that output.
            let entry = try #require(store.entry("trip"))
            let state = try JSONCoding.decode(SceneState<TripViewModel.Input, TripViewModel.Output>.self, from: entry.document)
            #expect(state.output == TripViewModel.Output(kilometres: 0, hours: 0))
            #expect(state.input == TripViewModel.Input())
            #expect(state.version == entry.version && state.version > 0)
        }

        @Test("Input and output round-trip through JSON with their member names")
        func inputAndOutputAreCodable() throws {
            var input = SuggestionsViewModel.Input()
            input.query = "lu"
            let encoded = try JSONCoding.encode(input)
            #expect(String(decoding: encoded, as: UTF8.self) == #"{"query":"lu"}"#)
            #expect(try JSONCoding.decode(SuggestionsViewModel.Input.self, from: encoded) == input)
            #expect(SuggestionsViewModel.Input.memberNames == ["query"])
            #expect(CounterViewModel.Input.memberNames == ["count", "label", "note"])
            #expect(EmptyInput.memberNames.isEmpty)

            let output = SuggestionsViewModel.Output(query: "lu", suggestions: ["luke"], wordCount: 4)
            let encodedOutput = try JSONCoding.encode(output)
            #expect(String(decoding: encodedOutput, as: UTF8.self) == #"{"query":"lu","suggestions":["luke"],"wordCount":4}"#)
            #expect(try JSONCoding.decode(SuggestionsViewModel.Output.self, from: encodedOutput) == output)
        }

        @Test("Setting the query recomputes the suggestions (seed 001's query in, suggestions out)")
        func queryInSuggestionsOut() async throws {
            let store = ViewModelStore()
            let model = try store.get(SuggestionsViewModel.self, key: "suggestions", factory: SuggestionsViewModel.factory())
            await store.load("suggestions")
            #expect(model.output.wordCount == 4)

            try store.setInput(["query": .string("l")], key: "suggestions")
            #expect(model.input.query == "l")
            #expect(model.output.suggestions == ["lando", "leia", "luke"])

            try store.setInput(["query": .string("lu")], key: "suggestions")
            #expect(model.output.suggestions == ["luke"])
        }

        @Test("Only the members sent change; the others keep their values")
        func inputIsMergedMemberByMember() throws {
            let store = ViewModelStore()
            let trip = try store.get(TripViewModel.self, key: "trip", factory: DefaultViewModelFactory())
            try store.setInput(["from": .string("Paris")], key: "trip")
            #expect(trip.output == TripViewModel.Output(kilometres: 0, hours: 0), "a trip needs a make and a model")
            try store.setInput(["to": .string("Rome")], key: "trip")
            #expect(trip.input.from == "Paris")
            #expect(trip.output == TripViewModel.Output(kilometres: 1420, hours: 14))
        }

        @Test("An unknown member or a value of the wrong type is refused and changes nothing")
        func badInputIsRefused() throws {
            let store = ViewModelStore()
            let counter = try store.get(CounterViewModel.self, key: "counter", factory: DefaultViewModelFactory())
            let version = try #require(store.entry("counter")).version

            let unknown = #expect(throws: InputError.self) {
                try store.setInput(["count": .number(1), "colour": .string("red")], key: "counter")
            }
            #expect(unknown?.member == "colour")
            let wrongType = #expect(throws: InputError.self) {
                try store.setInput(["count": .string("one")], key: "counter")
            }
            #expect(wrongType?.member == "count")
            #expect(counter.input == CounterViewModel.Input())
            #expect(store.entry("counter")?.version == version)
        }

        @Test("An input sent while the load is suspended is applied at once and not dropped (latest wins)")
        func inputDuringLoadIsLatestWins() async throws {
            let gate = Gate()
            let service = FakeSuggestionService(["leia", "luke", "lando"], gate: gate)
            var dependencies = DependencyValues()
            dependencies.suggestions = service
            let context = ContextActor(id: "latest-wins", catalogue: SuggestionsViewModel.catalogue(), dependencies: dependencies)
            typealias State = SceneState<SuggestionsViewModel.Input, SuggestionsViewModel.Output>

            // Making the view model starts its load, which suspends in the fake service.
            _ = try await context.state(of: "suggestions")
            try await gate.waitForArrivals(1)

            // The context is not blocked by the suspended load: both inputs are taken at once.
            _ = try await context.setInput(["query": .string("l")], key: "suggestions")
            let during = try State(await context.setInput(["query": .string("le")], key: "suggestions"))
            #expect(during.lifecycle == .loading)
            #expect(during.input.query == "le")
            #expect(during.output.query == "le")
            #expect(during.output.wordCount == 0, "the words have not arrived yet")

            // When the words arrive, the suggestions follow the latest query.
            gate.open()
            let loaded = try State(await context.board.waitForLifecycle(.loaded, of: "suggestions"))
            #expect(loaded.input.query == "le")
            #expect(loaded.output == SuggestionsViewModel.Output(query: "le", suggestions: ["leia"], wordCount: 3))
            #expect(await service.calls == 1)
            await context.close()
        }
    }
}
