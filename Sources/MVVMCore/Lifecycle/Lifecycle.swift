/// The five states of a view model and the transitions between them, as a value
/// (ViewModelable's lifecycle): initialized → setuped → loading → loaded → (updates)
/// → unloading → setuped.
///
/// Each transition returns the observer event it causes, or throws when it is not allowed
/// from the current state. The type does no I/O, so every rule is tested as a pure value.
package struct Lifecycle: Sendable, Equatable {
    /// A state.
    package enum State: String, Sendable, Codable, CaseIterable {
        /// Made by its factory, not set up yet.
        case initialized
        /// Set up; not loading.
        case setuped
        /// Loading what it needs.
        case loading
        /// Loaded; updates may follow.
        case loaded
        /// Being unloaded.
        case unloading
    }

    /// A step the store asks for.
    package enum Transition: String, Sendable {
        /// initialized → setuped.
        case setup
        /// setuped → loading.
        case startLoading
        /// loading → loaded.
        case finishLoading
        /// loaded → loaded, when the output changed.
        case update
        /// setuped, loading or loaded → unloading. From loading, the load is cancelled.
        case startUnloading
        /// unloading → setuped.
        case finishUnloading
    }

    /// A transition that the current state does not allow.
    package struct InvalidTransition: Error, Equatable, Sendable {
        /// The state the view model was in.
        package let state: State
        /// The transition that was asked for.
        package let transition: Transition
    }

    /// The current state.
    package private(set) var state: State = .initialized

    /// A lifecycle in the initialized state.
    package init() {}

    /// Whether the transition is allowed from the current state.
    package func allows(_ transition: Transition) -> Bool {
        switch (state, transition) {
        case (.initialized, .setup),
            (.setuped, .startLoading),
            (.loading, .finishLoading),
            (.loaded, .update),
            (.setuped, .startUnloading), (.loading, .startUnloading), (.loaded, .startUnloading),
            (.unloading, .finishUnloading):
            true
        default:
            false
        }
    }

    /// Applies a transition and returns the event it causes.
    /// - Throws: ``InvalidTransition`` when the current state does not allow it; the state is unchanged.
    @discardableResult
    package mutating func apply(_ transition: Transition, changes: [String] = []) throws -> LifecycleEvent {
        guard allows(transition) else { throw InvalidTransition(state: state, transition: transition) }
        switch transition {
        case .setup:
            state = .setuped
            return .didSetup
        case .startLoading:
            state = .loading
            return .willLoad
        case .finishLoading:
            state = .loaded
            return .didLoad
        case .update: return .didUpdate(changes: changes)
        case .startUnloading:
            state = .unloading
            return .willUnload
        case .finishUnloading:
            state = .setuped
            return .didUnload
        }
    }
}

/// What a view model's observers are told (ViewModelable's observer methods).
package enum LifecycleEvent: Sendable, Equatable {
    /// The view model was set up.
    case didSetup
    /// Loading starts.
    case willLoad
    /// Loading finished.
    case didLoad
    /// The output changed; `changes` names the output members that changed.
    case didUpdate(changes: [String])
    /// Unloading starts.
    case willUnload
    /// Unloading finished.
    case didUnload

    /// The event's name, as clients see it.
    package var name: String {
        switch self {
        case .didSetup: "didSetup"
        case .willLoad: "willLoad"
        case .didLoad: "didLoad"
        case .didUpdate: "didUpdate"
        case .willUnload: "willUnload"
        case .didUnload: "didUnload"
        }
    }
}
