import Foundation
import MVVMClient
import Testing

/// A scene under test, in the spirit of the Composable Architecture's `TestStore`: each step
/// (an input, an action, a version published later such as a load finishing) states the
/// expected state as a change of the previous one, and a mismatch fails the test with a diff.
///
/// The events of the scene are checked with the states: a lifecycle change stated by a step
/// expects its event (`didSetup`, `willLoad`, `didLoad`, `willUnload`), and an output change of
/// a loaded scene its `didUpdate` naming the changed members. When exhaustive (the default),
/// ``finish(within:sourceLocation:)`` fails the test for every state version and event of the
/// scene that no step asserted.
/// ```swift
/// let store = try await SceneStore(session.scene("counter", input: Input.self, output: Output.self))
/// try await store.perform("increment") { $0.output.count = 1 }
/// try await store.finish()
/// ```
public final class SceneStore<Input: Codable & Sendable, Output: Codable & Sendable> {
    /// What a step asserts: the scene's lifecycle, input, output and error. Two states are the
    /// same when they encode to the same JSON (so `Input` and `Output` need not be `Equatable`).
    public struct State: Codable, Sendable, Equatable {
        /// Where the view model is in its lifecycle.
        public var lifecycle: SceneLifecycle
        /// The input.
        public var input: Input
        /// The output.
        public var output: Output
        /// The last error of the load or an action, `nil` once one succeeds.
        public var error: String?

        init(_ state: SceneState<Input, Output>) {
            lifecycle = state.lifecycle
            input = state.input
            output = state.output
            error = state.error
        }

        /// Whether both encode to the same JSON.
        public static func == (left: State, right: State) -> Bool {
            StateDiff.between(expected: left, actual: right) == nil
        }
    }

    /// How strictly the store checks.
    public enum Exhaustivity: Sendable, Equatable {
        /// Every version and event of the scene must be asserted by a step.
        case on
        /// Each step's expectation starts from the scene's state at the time of the step (and
        /// passes too when what it sets holds in the state it reached, so that a change that
        /// came meanwhile need not be asserted), a ``receive(timeout:sourceLocation:_:)`` skips
        /// versions until one matches, and what was not asserted does not fail the test.
        case off
    }

    /// The scene.
    public let scene: SceneClient<Input, Output>
    /// How strictly the store checks; exhaustive unless set otherwise.
    public var exhaustivity: Exhaustivity = .on
    /// How long a step waits for a version or an event it expects.
    public var timeout: Duration
    /// The last state asserted (the scene's own, after the last step).
    public private(set) var state: State
    /// The version of ``state``.
    public private(set) var version: UInt64
    private var eventCursor: UInt64
    var unassertedEvents: [SessionEvent] = []

    /// Reads the scene's state now (making its view model on first use) as the starting
    /// point; the events that led to it are taken as seen. A view model made earlier may still
    /// be loading (a session's root, right after the session was made): to start from its
    /// loaded state, wait for it first (`scene.state { $0.isLoaded }`).
    public init(_ scene: SceneClient<Input, Output>, timeout: Duration = .seconds(5)) async throws {
        self.scene = scene
        self.timeout = timeout
        let first = try await scene.state()
        state = State(first)
        version = first.version
        // Versions and event sequence numbers come from one counter: the events up to the first
        // state's version led to it, and so does the `didUpdate` numbered right after it (the
        // framework records it just after numbering the state); the later ones (its load, say)
        // are for the steps to assert.
        eventCursor = first.version
        try await readEvents()
        unassertedEvents.removeAll { $0.sequence == first.version + 1 && $0.type == "didUpdate" }
    }

    /// Merges members into the input, and asserts the new state.
    public func setInput(members: some Encodable, sourceLocation: SourceLocation = #_sourceLocation, _ expect: (inout State) throws -> Void)
        async throws
    {
        let baseline = try await startingState()
        try await check(try await scene.setInput(members: members), from: baseline, sourceLocation, expect)
    }

    /// Sets the whole input, and asserts the new state.
    public func setInput(_ input: Input, sourceLocation: SourceLocation = #_sourceLocation, _ expect: (inout State) throws -> Void) async throws {
        try await setInput(members: input, sourceLocation: sourceLocation, expect)
    }

    /// Performs an action, and asserts the new state and, when it navigates, where to: the keys
    /// of the stack (root first) and of the modal. Exhaustive, an action that navigates where the
    /// step states no navigation fails, as does one that does not navigate where the step states
    /// one. Returns the navigation when the action navigated.
    @discardableResult
    public func perform(
        _ action: String, arguments: some Encodable = [String: String](), navigation expected: ExpectedNavigation? = nil,
        sourceLocation: SourceLocation = #_sourceLocation, _ expect: (inout State) throws -> Void
    ) async throws -> SessionNavigation? {
        let baseline = try await startingState()
        let outcome = try await scene.perform(action, arguments: arguments)
        try await check(outcome.state, from: baseline, sourceLocation, expect)
        let reached = outcome.navigation.map(ExpectedNavigation.init)
        let met =
            switch (expected, reached) {
            case (nil, nil): true
            case (let expected?, let reached?): expected.isMet(by: reached)
            default: false
            }
        if !met, expected != nil || exhaustivity == .on {
            let said = expected.map { "\($0)" } ?? "no navigation"
            var did = reached.map { "\($0)" } ?? "did not navigate"
            if let expected, let reached { did += ":\n" + expected.differences(from: reached).map { "  \($0)" }.joined(separator: "\n") }
            Issue.record("'\(action)' of '\(scene.key)': the step expected \(said); the action \(did).", sourceLocation: sourceLocation)
        } else if reached != nil {
            // The navigation the step stated covers the navigation events about this scene.
            try await readEvents()
            unassertedEvents.removeAll { ExpectedNavigation.eventTypes.contains($0.type) }
        }
        return outcome.navigation
    }

    /// Waits for the next version of the state (a load finishing, work a view model launched),
    /// and asserts it. Not exhaustive, it passes at once when the scene's state now already
    /// holds what `expect` sets (a version that came before, a state already seen), and
    /// otherwise skips versions until one does.
    public func receive(timeout: Duration? = nil, sourceLocation: SourceLocation = #_sourceLocation, _ expect: (inout State) throws -> Void)
        async throws
    {
        let deadline = ContinuousClock.now + (timeout ?? self.timeout)
        var expected = state
        try expect(&expected)
        if exhaustivity == .off {
            let now = try await startingState()
            if now == expected || assertedChangesHold(expect, in: now) { return }
        }
        while true {
            let remaining = deadline - .now
            guard remaining > .zero else {
                Issue.record(
                    "No new version of '\(scene.key)' came within \(timeout ?? self.timeout) (still at version \(version)).",
                    sourceLocation: sourceLocation)
                return
            }
            let next = try await scene.next(after: version, wait: remaining)
            guard next.version != version else { continue }
            let reached = State(next)
            // Not exhaustive, versions are skipped until one matches; exhaustive, only a load's
            // `loading` version published on the way to the `loaded` one this step expects.
            let loadingOnTheWay = reached.lifecycle == .loading && expected.lifecycle == .loaded
            let holdsNotExhaustive = exhaustivity == .off && assertedChangesHold(expect, in: reached)
            if reached != expected, !holdsNotExhaustive, exhaustivity == .off || loadingOnTheWay {
                if exhaustivity == .off { state = reached }
                version = next.version
                continue
            }
            try await check(next, from: state, sourceLocation, expect)
            return
        }
    }

    /// Ends the test of the scene: waits up to `within` (the store's ``timeout`` when `nil`) for
    /// the session to settle, so that work still in flight (a load, a launched task) has ended,
    /// then, when exhaustive, fails the test for every version and event of the scene that no
    /// step asserted.
    public func finish(within: Duration? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        _ = try await scene.session.settled(wait: within ?? timeout)
        let latest = try await scene.state()
        try await readEvents()
        guard exhaustivity == .on else { return }
        var problems: [String] = []
        if latest.version != version {
            let diff = StateDiff.between(expected: state, actual: State(latest)) ?? "(the same state)"
            problems.append("Version \(latest.version) of '\(scene.key)' was not asserted (the last asserted is \(version)):\n\(diff)")
        }
        if !unassertedEvents.isEmpty {
            problems.append("Events of '\(scene.key)' were not asserted:\n" + unassertedEvents.map(Self.describe).joined(separator: "\n"))
        }
        if !problems.isEmpty {
            Issue.record(Comment(rawValue: problems.joined(separator: "\n")), sourceLocation: sourceLocation)
        }
    }

    /// The state a step's expectation starts from: the last asserted, or when not exhaustive
    /// the scene's state now.
    func startingState() async throws -> State {
        guard exhaustivity == .off else { return state }
        let now = try await scene.state()
        try await readEvents()
        unassertedEvents.removeAll()
        state = State(now)
        version = now.version
        return state
    }

    private func check(
        _ actual: SceneState<Input, Output>, from baseline: State, _ sourceLocation: SourceLocation, _ expect: (inout State) throws -> Void
    ) async throws {
        var expected = baseline
        try expect(&expected)
        let reached = State(actual)
        if let diff = StateDiff.between(expected: expected, actual: reached), !assertedChangesHold(expect, in: reached) {
            Issue.record(
                "The state of '\(scene.key)' at version \(actual.version) is not the one expected (− expected, + actual):\n\(diff)",
                sourceLocation: sourceLocation)
        }
        let events = ExpectedEvents.between(baseline, expected)
        state = reached
        version = actual.version
        try await consume(events, sourceLocation)
    }

    /// Not exhaustive, whether what a step sets already holds in the state reached: changes
    /// that came between the step's starting state and its answer (a load finishing, work a
    /// view model launched) are not the step's to assert.
    private func assertedChangesHold(_ expect: (inout State) throws -> Void, in reached: State) -> Bool {
        guard exhaustivity == .off else { return false }
        var expected = reached
        guard (try? expect(&expected)) != nil else { return false }
        return expected == reached
    }

    /// Finds each expected event among those read, in order; when some are not there yet, waits
    /// up to `timeout` for the session to settle and reads again.
    private func consume(_ expected: [ExpectedEvents.Event], _ sourceLocation: SourceLocation) async throws {
        var missing = expected
        for attempt in 0..<2 {
            if attempt > 0 { _ = try await scene.session.settled(wait: timeout) }
            try await readEvents()
            missing = missing.filter { event in
                guard let index = unassertedEvents.firstIndex(where: event.matches) else { return true }
                unassertedEvents.remove(at: index)
                return false
            }
            if missing.isEmpty { break }
        }
        for event in missing {
            Issue.record("The step expected the event \(event) of '\(scene.key)', which did not come.", sourceLocation: sourceLocation)
        }
    }

    /// Reads the scene's events after the cursor into the unasserted ones.
    func readEvents() async throws {
        let batch = try await scene.session.events(after: eventCursor)
        eventCursor = max(eventCursor, batch.version)
        unassertedEvents += batch.events.filter { $0.key == scene.key }
    }

    private static func describe(_ event: SessionEvent) -> String {
        "  #\(event.sequence) \(event.type)" + (event.changes.map { " \($0)" } ?? "") + (event.slot.map { " slot \($0)" } ?? "")
    }
}
