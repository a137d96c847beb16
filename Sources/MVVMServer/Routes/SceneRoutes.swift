import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON

/// A scene's state, input, actions and snapshot.
extension API {
    func addSceneRoutes(to router: inout Router) {
        router.add("GET", "/sessions/{id}/scenes/{key...}/snapshot") { [self] routed in try readSnapshot(routed) }
        router.add("POST", "/sessions/{id}/scenes/{key...}/input", journaled { [self] routed in try sendInput(routed) })
        router.add("POST", "/sessions/{id}/scenes/{key...}/actions/{action}", journaled { [self] routed in try performAction(routed) })
        router.add("GET", "/sessions/{id}/scenes/{key...}") { [self] routed in try readState(routed) }
    }

    /// `GET …/scenes/{key}`: the state, a long-poll for a newer one, or a stream of them.
    func readState(_ routed: RoutedRequest) throws -> Reply {
        let (session, poll, stream) = try documentRead(routed)
        let key = try addressableKey(routed)
        let isObserver = Self.isObserversRead(routed.request)
        if let stream {
            return streamState(session, key: key, after: stream.after, isObserver: isObserver)
        }
        // A plain read of a published state (the common case) answers at once.
        let ifNoneMatch = poll.since == nil ? routed.request.header(RequestHeaderField.ifNoneMatch) : nil
        let current = session.board.document(.scene(key))
        if let current, poll.since == nil {
            return ifNoneMatch == nil ? published(current, of: session) : .response(Documents.stateResponse(current, ifNoneMatch: ifNoneMatch))
        }
        let render: @Sendable (PublicationBoard.Document) -> HTTPResponse = { Documents.stateResponse($0, ifNoneMatch: ifNoneMatch) }
        if let current {
            return self.poll(session, .scene(key), poll, current: current, render: render)
        }
        return .onContext(session.context) { [self] context in
            self.poll(session, .scene(key), poll, current: try Self.state(of: key, in: context, isObserver: isObserver), render: render)
        }
    }

    /// `GET …/scenes/{key}/snapshot`: the snapshot, its changes since a version, a long-poll
    /// for a newer one, or a stream of them.
    func readSnapshot(_ routed: RoutedRequest) throws -> Reply {
        let (session, poll, stream) = try documentRead(routed)
        let key = try addressableKey(routed)
        let isObserver = Self.isObserversRead(routed.request)
        if let stream {
            return streamSnapshot(session, key: key, after: stream.after, isObserver: isObserver)
        }
        let current = session.board.document(.snapshot(key))
        if let current, poll.since == nil {
            return published(current, of: session)
        }
        let render = Documents.snapshotRenderer(board: session.board, key: key, since: poll.since)
        if let current {
            return self.poll(session, .snapshot(key), poll, current: current, render: render)
        }
        return .onContext(session.context) { [self] context in
            _ = try Self.state(of: key, in: context, isObserver: isObserver)
            guard let current = session.board.document(.snapshot(key)) else {
                throw HTTPError(.snapshotNotFound, detail: "The scene '\(key)' publishes no snapshot.")
            }
            return self.poll(session, .snapshot(key), poll, current: current, render: render)
        }
    }

    /// A scene's state read on its context: made on first use, except for an observer's read
    /// (`MVVM-Observer`), which never makes a view model.
    /// - Throws: 404 `scene-not-found` for an observer's read of a scene not in the store.
    static func state(of key: String, in context: isolated ContextActor, isObserver: Bool) throws -> PublicationBoard.Document {
        guard isObserver else { return try context.state(of: key) }
        guard let state = context.existingState(of: key) else {
            throw HTTPError(.sceneNotFound, detail: "The scene '\(key)' is not in the session's store, and an observer's read does not make it.")
        }
        return state
    }

    /// The `key` path parameter, when a client may address it.
    /// - Throws: 404 `scene-not-found` for a key of a scene that is the app's own.
    private func addressableKey(_ routed: RoutedRequest) throws(HTTPError) -> String {
        let key = routed["key"]
        guard sessions.catalogue.isAddressable(key: key) else {
            throw HTTPError(.sceneNotFound, detail: "No scene of this app has the key '\(key)'.")
        }
        return key
    }

    /// `POST …/scenes/{key}/input`: merges the members into the input; the new state once saved.
    func sendInput(_ routed: RoutedRequest) throws -> Reply {
        let session = try liveSession(routed)
        let patch = try InputPatch.of(routed.request.body) { body throws(HTTPError) in try jsonObject(body, allowEmpty: false) }
        let key = try addressableKey(routed)
        return saved.savingOnContext(session) { context in
            Documents.stateResponse(try context.setInput(patch, key: key))
        }
    }

    /// `POST …/scenes/{key}/actions/{action}`: performs the action (which may wait); the new
    /// state, with the navigation when it changed, once saved.
    func performAction(_ routed: RoutedRequest) throws -> Reply {
        let session = try liveSession(routed)
        let arguments = try jsonObject(routed.request.body, allowEmpty: true)
        let key = try addressableKey(routed)
        let action = routed["action"]
        return .task { [saved] in
            .response(
                try await saved.saving(session) {
                    let (state, navigated) = try await session.context.perform(action: action, arguments: arguments, key: key)
                    guard navigated, let navigation = session.board.latestDocument(.navigation) else { return Documents.stateResponse(state) }
                    return Documents.versionedJSON(StateDocument.adding("navigation", navigation.body, to: state.body), version: state.version)
                })
        }
    }
}
