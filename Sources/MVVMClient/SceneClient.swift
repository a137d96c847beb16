import Foundation
import OpenAPIRuntime

/// One scene of a session, by store key, read and driven with the app's own `Input` and
/// `Output` types (those of its view model, or any `Codable` types of the same shape).
public struct SceneClient<Input: Codable & Sendable, Output: Decodable & Sendable>: Sendable {
    /// The session.
    public let session: SessionClient
    /// The store key, e.g. `film/2`.
    public let key: String

    var api: Client { session.api }
    var path: Operations.GetSceneState.Input.Path { .init(id: session.id, key: key) }

    /// The state now; the view model is made (and starts loading) on first use.
    public func state() async throws -> SceneState<Input, Output> {
        try SceneState(try await call { try await api.getSceneState(path: path).ok.body.json })
    }

    /// The first state newer than `version`: at once when there is one, otherwise when the
    /// state changes, or the current state after `wait` (the server may cut the wait).
    public func next(after version: UInt64, wait: Duration = .seconds(30)) async throws -> SceneState<Input, Output> {
        let query = Operations.GetSceneState.Input.Query(since: Int(clamping: version), wait: waitParameter(wait))
        return try SceneState(try await call { try await api.getSceneState(path: path, query: query).ok.body.json })
    }

    /// Follows the state until one satisfies `condition`, long-polling each next version; throws
    /// ``SceneClientError/timedOut(key:lastVersion:)`` after `timeout`.
    public func state(timeout: Duration = .seconds(10), where condition: (SceneState<Input, Output>) -> Bool) async throws -> SceneState<
        Input, Output
    > {
        let deadline = ContinuousClock.now + timeout
        var state = try await state()
        while !condition(state) {
            let remaining = deadline - .now
            guard remaining > .zero else { throw SceneClientError.timedOut(key: key, lastVersion: state.version) }
            state = try await next(after: state.version, wait: min(remaining, .seconds(30)))
        }
        return state
    }

    /// Every version of the state from now on: the current one first, then each newer one as
    /// the server publishes it. A reader slower than the changes skips versions (only the
    /// latest is read). It ends by throwing when the session is gone.
    ///
    /// `delivery` says how the versions come: ``UpdateDelivery/automatic`` reads a
    /// Server-Sent Events stream when the client talks to the server over `URLSession`, and
    /// long-polls (each long-poll waiting at most `wait`) otherwise, or when the server does not
    /// stream, or after the stream ended.
    public func updates(wait: Duration = .seconds(30), delivery: UpdateDelivery = .automatic) -> SceneUpdates<Input, Output> {
        SceneUpdates(scene: self, wait: wait, delivery: delivery)
    }

    /// Sets the whole input (every member); returns the new state.
    @discardableResult
    public func setInput(_ input: Input) async throws -> SceneState<Input, Output> {
        try await setInput(members: input)
    }

    /// Merges members into the input (those not sent keep their values): `members` encodes to a
    /// JSON object, e.g. a dictionary or a struct of the members to change. Returns the new
    /// state; an unknown member or a wrong type throws `invalid-input`, and nothing changes.
    @discardableResult
    public func setInput(members: some Encodable) async throws -> SceneState<Input, Output> {
        let body = try ContainerDecoding.container(OpenAPIObjectContainer.self, encoding: members)
        return try SceneState(
            try await call {
                try await api.setInput(path: .init(id: session.id, key: key), body: .json(body)).ok.body.json
            })
    }

    /// Performs an action, with arguments that encode to a JSON object (none by default);
    /// returns the new state, and the navigation when the action navigated.
    @discardableResult
    public func perform(_ action: String, arguments: some Encodable = [String: String]()) async throws -> ActionOutcome<Input, Output> {
        let body = try ContainerDecoding.container(OpenAPIObjectContainer.self, encoding: arguments)
        let result = try await call {
            try await api.performAction(path: .init(id: session.id, key: key, action: action), body: .json(body)).ok.body.json
        }
        return ActionOutcome(state: try SceneState(result.value1), navigation: result.value2.navigation.map(SessionNavigation.init))
    }

    /// The whole snapshot of a list scene now.
    public func snapshot() async throws -> SceneSnapshot {
        switch try await snapshotDocument(since: nil, wait: nil) {
        case .snapshot(let snapshot): return snapshot
        case .changes: throw SceneClientError.unexpectedChanges(key: key)
        }
    }

    /// A local copy of the scene's snapshot, read whole now, that ``SnapshotCopy/update(wait:)``
    /// keeps current from the changes the server answers.
    public func snapshotCopy() async throws -> SnapshotCopy<Input, Output> {
        SnapshotCopy(scene: self, snapshot: try await snapshot())
    }

    /// What changed in the scene's snapshot since `version`, once something has (a long-poll
    /// of at most `wait`; at its end, the answer says nothing changed): its ``SnapshotRead/changes(_:)``
    /// from `version`, to apply with ``SceneSnapshot/applying(_:)``, or the whole snapshot
    /// (``SnapshotRead/snapshot(_:)``) when the server no longer holds the versions between.
    public func changes(since version: UInt64, wait: Duration = .seconds(30)) async throws -> SnapshotRead {
        try await snapshotDocument(since: version, wait: wait)
    }

    /// `GET …/snapshot`, with `since` and `wait` when given.
    func snapshotDocument(since: UInt64?, wait: Duration?) async throws -> SnapshotRead {
        let query = Operations.GetSnapshot.Input.Query(since: since.map { Int(clamping: $0) }, wait: since == nil ? nil : wait.map(waitParameter))
        switch try await call({ try await api.getSnapshot(path: .init(id: session.id, key: key), query: query).ok.body.json }) {
        case .snapshot(let snapshot): return .snapshot(try SceneSnapshot(snapshot))
        case .changes(let changes): return .changes(try SceneSnapshot.Changes(changes))
        }
    }
}

/// What an action answered: the scene's new state, and the navigation when it navigated.
public struct ActionOutcome<Input: Decodable & Sendable, Output: Decodable & Sendable>: Sendable {
    /// The new state.
    public var state: SceneState<Input, Output>
    /// The new navigation, when the action navigated.
    public var navigation: SessionNavigation?
}

/// A read of a scene's snapshot: the whole snapshot, or its changes since a version.
public enum SnapshotRead: Sendable, Equatable {
    /// The whole snapshot now.
    case snapshot(SceneSnapshot)
    /// What changed since the version asked about (empty when nothing did within the wait).
    case changes(SceneSnapshot.Changes)
}

/// What a scene client reports besides the server's problems.
public enum SceneClientError: Error, Sendable, Equatable {
    /// The state never satisfied the condition in time.
    case timedOut(key: String, lastVersion: UInt64)
    /// The server answered changes to a read of the whole snapshot.
    case unexpectedChanges(key: String)
    /// Changes do not apply to the local copy (they are from another version, or name items it
    /// does not hold); the copy reads the whole snapshot instead.
    case changesDoNotApply(key: String, detail: String)
}
