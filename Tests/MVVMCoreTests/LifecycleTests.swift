import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// The five-state lifecycle of seed 003 as a pure value: initialized → setuped → loading →
    /// loaded → (updates) → unloading → setuped. Every allowed and forbidden transition.
    @Suite("The lifecycle state machine")
    struct LifecycleTests {
        static let allTransitions: [Lifecycle.Transition] = [.setup, .startLoading, .finishLoading, .update, .startUnloading, .finishUnloading]

        /// The rules, written out independently of the implementation: the state and event each
        /// allowed transition leads to; `nil` for a forbidden one.
        static func expected(from state: Lifecycle.State, _ transition: Lifecycle.Transition) -> (state: Lifecycle.State, event: LifecycleEvent)? {
            switch (state, transition) {
            case (.initialized, .setup): (.setuped, .didSetup)
            case (.setuped, .startLoading): (.loading, .willLoad)
            case (.loading, .finishLoading): (.loaded, .didLoad)
            case (.loaded, .update): (.loaded, .didUpdate(changes: ["kilometres"]))
            case (.setuped, .startUnloading), (.loading, .startUnloading), (.loaded, .startUnloading): (.unloading, .willUnload)
            case (.unloading, .finishUnloading): (.setuped, .didUnload)
            default: nil
            }
        }

        /// A lifecycle brought into `state` by allowed transitions.
        static func lifecycle(in state: Lifecycle.State) throws -> Lifecycle {
            let path: [Lifecycle.Transition] =
                switch state {
                case .initialized: []
                case .setuped: [.setup]
                case .loading: [.setup, .startLoading]
                case .loaded: [.setup, .startLoading, .finishLoading]
                case .unloading: [.setup, .startLoading, .finishLoading, .startUnloading]
                }
            var lifecycle = Lifecycle()
            for transition in path { try lifecycle.apply(transition) }
            #expect(lifecycle.state == state)
            return lifecycle
        }

        @Test("A new lifecycle is initialized")
        func startsInitialized() {
            #expect(Lifecycle().state == .initialized)
            #expect(Lifecycle.State.allCases == [.initialized, .setuped, .loading, .loaded, .unloading])
        }

        @Test("Every transition from every state is allowed or refused as the rules say", arguments: Lifecycle.State.allCases, allTransitions)
        func everyTransition(from state: Lifecycle.State, transition: Lifecycle.Transition) throws {
            var lifecycle = try Self.lifecycle(in: state)
            if let outcome = Self.expected(from: state, transition) {
                #expect(lifecycle.allows(transition))
                #expect(try lifecycle.apply(transition, changes: ["kilometres"]) == outcome.event)
                #expect(lifecycle.state == outcome.state)
            } else {
                #expect(!lifecycle.allows(transition))
                let error = #expect(throws: Lifecycle.InvalidTransition.self) {
                    try lifecycle.apply(transition)
                }
                #expect(error?.state == state && error?.transition == transition, "the error names the state and the transition")
                #expect(lifecycle.state == state, "a refused transition leaves the state unchanged")
            }
        }

        @Test("Exactly eight transitions are allowed in all")
        func allowedCount() throws {
            var allowed = 0
            for state in Lifecycle.State.allCases {
                let lifecycle = try Self.lifecycle(in: state)
                allowed += Self.allTransitions.filter(lifecycle.allows).count
            }
            #expect(allowed == 8)
        }

        @Test("The whole path returns the observer events of seed 003, in order")
        func wholePath() throws {
            var lifecycle = Lifecycle()
            var events: [LifecycleEvent] = []
            events.append(try lifecycle.apply(.setup))
            events.append(try lifecycle.apply(.startLoading))
            events.append(try lifecycle.apply(.finishLoading))
            events.append(try lifecycle.apply(.update, changes: ["hours"]))
            events.append(try lifecycle.apply(.update, changes: ["kilometres", "hours"]))
            events.append(try lifecycle.apply(.startUnloading))
            events.append(try lifecycle.apply(.finishUnloading))
            #expect(
                events == [
                    .didSetup, .willLoad, .didLoad, .didUpdate(changes: ["hours"]), .didUpdate(changes: ["kilometres", "hours"]), .willUnload,
                    .didUnload,
                ])
            #expect(events.map(\.name) == ["didSetup", "willLoad", "didLoad", "didUpdate", "didUpdate", "willUnload", "didUnload"])
            #expect(lifecycle.state == .setuped, "unloading ends set up again, ready to load anew")
        }

        @Test("No transition ever leads back to initialized")
        func neverBackToInitialized() throws {
            for state in Lifecycle.State.allCases {
                for transition in Self.allTransitions {
                    var lifecycle = try Self.lifecycle(in: state)
                    if (try? lifecycle.apply(transition)) != nil {
                        #expect(lifecycle.state != .initialized)
                    }
                }
            }
        }

        @Test("A lifecycle is a value: a copy moves on its own")
        func isAValue() throws {
            let loaded = try Self.lifecycle(in: .loaded)
            var copy = loaded
            try copy.apply(.startUnloading)
            #expect(loaded.state == .loaded)
            #expect(copy.state == .unloading)
            #expect(copy != loaded)
        }
    }
}
