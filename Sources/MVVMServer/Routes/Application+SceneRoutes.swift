import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON

/// A scene's state, input, actions and snapshot.
extension Application {
    func addSceneRoutes(to router: inout Router) {
        router.add("GET", "/sessions/{id}/scenes/{key...}/snapshot") { [self] routed, responder in
            guard let session = liveSession(routed, responder) else { return }
            let key = routed["key"]
            let poll: PollParameters
            do { poll = try PollParameters(routed.request.query, maxWait: configuration.maxWaitSeconds) } catch { responder.answer(HTTPError.from(error)); return }
            let stream: StreamRequest?
            do { stream = try StreamRequest(routed.request, poll: poll) } catch { responder.answer(HTTPError.from(error)); return }
            if let stream {
                streamSnapshot(session, key: key, after: stream.after, routed, responder)
                return
            }
            let published = session.board.document(.snapshot(key))
            if let published, poll.since == nil {
                answerPublished(published, of: session, responder)
                return
            }
            let render = Self.snapshotRenderer(board: session.board, key: key, since: poll.since)
            if let current = published {
                self.poll(session, .snapshot(key), poll, current: current, responder: responder, render: render)
                return
            }
            onContext(session.context, routed, responder) { [self] context in
                _ = try context.state(of: key)
                guard let current = session.board.document(.snapshot(key)) else {
                    throw HTTPError(.snapshotNotFound, detail: "The scene '\(key)' publishes no snapshot.")
                }
                self.poll(session, .snapshot(key), poll, current: current, responder: responder, render: render)
                return nil
            }
        }

        router.add("POST", "/sessions/{id}/scenes/{key...}/input") { [self] routed, responder in
            guard let session = liveSession(routed, responder) else { return }
            let members: [String: JSONValue]
            do { members = try jsonObject(routed.request, allowEmpty: false) } catch { responder.answer(HTTPError.from(error)); return }
            let key = routed["key"]
            onContextSaving(session, routed, responder) { context in
                Self.stateResponse(try context.setInput(members, key: key))
            }
        }

        router.add("POST", "/sessions/{id}/scenes/{key...}/actions/{action}") { [self] routed, responder in
            guard let session = liveSession(routed, responder) else { return }
            let arguments: [String: JSONValue]
            do { arguments = try jsonObject(routed.request, allowEmpty: true) } catch { responder.answer(HTTPError.from(error)); return }
            let key = routed["key"]
            let action = routed["action"]
            run(responder) { [self] in
                try await saving(session) {
                    let (state, navigated) = try await session.context.perform(action: action, arguments: arguments, key: key)
                    guard navigated, let navigation = session.board.latestDocument(.navigation) else { return Self.stateResponse(state) }
                    return Self.versionedJSON(StateDocument.adding("navigation", navigation.body, to: state.body), version: state.version)
                }
            }
        }

        router.add("GET", "/sessions/{id}/scenes/{key...}") { [self] routed, responder in
            guard let session = liveSession(routed, responder) else { return }
            let key = routed["key"]
            let poll: PollParameters
            do { poll = try PollParameters(routed.request.query, maxWait: configuration.maxWaitSeconds) } catch { responder.answer(HTTPError.from(error)); return }
            let stream: StreamRequest?
            do { stream = try StreamRequest(routed.request, poll: poll) } catch { responder.answer(HTTPError.from(error)); return }
            if let stream {
                streamState(session, key: key, after: stream.after, routed, responder)
                return
            }
            // A plain read of a published state (the common case) answers at once.
            let ifNoneMatch = poll.since == nil ? routed.request.header(RequestHeaderField.ifNoneMatch) : nil
            let current = session.board.document(.scene(key))
            if let current, poll.since == nil {
                if ifNoneMatch == nil {
                    answerPublished(current, of: session, responder)
                } else {
                    responder.answer(Self.stateResponse(current, ifNoneMatch: ifNoneMatch))
                }
                return
            }
            let render: @Sendable (PublicationBoard.Document) -> HTTPResponse = { Self.stateResponse($0, ifNoneMatch: ifNoneMatch) }
            if let current {
                self.poll(session, .scene(key), poll, current: current, responder: responder, render: render)
                return
            }
            onContext(session.context, routed, responder) { [self] context in
                let current = try context.state(of: key)
                self.poll(session, .scene(key), poll, current: current, responder: responder, render: render)
                return nil
            }
        }
    }

    /// The state document, with its version as the ETag; 304 when `ifNoneMatch` names it.
    static func stateResponse(_ document: PublicationBoard.Document, ifNoneMatch: String? = nil) -> HTTPResponse {
        if let ifNoneMatch {
            let etag = entityTag(document.version)
            if ifNoneMatch.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") == etag || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
                return HTTPResponse(status: 304, headers: versionHeaders(document.version))
            }
        }
        return documentResponse(document)
    }

    /// A published document as JSON with its version as the ETag, prepared once per version.
    static func documentResponse(_ document: PublicationBoard.Document) -> HTTPResponse {
        .prepared(in: document.attachment) {
            versionedJSON(document.body, version: document.version)
        }
    }

    /// A version's entity tag: the version in quotes.
    static func entityTag(_ version: UInt64) -> String {
        "\"" + String(version) + "\""
    }

    /// The header fields of an answer about one version: its entity tag, and not to be stored
    /// by caches.
    static func versionHeaders(_ version: UInt64) -> [(name: String, value: String)] {
        [("ETag", entityTag(version)), ("Cache-Control", "no-store")]
    }

    /// JSON bytes of one version, with ``versionHeaders(_:)`` (the header fields built in one
    /// array with the content type, not joined to them: this runs once per published version).
    static func versionedJSON(_ body: Data, version: UInt64) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("ETag", entityTag(version)), ("Cache-Control", "no-store")], body: body)
    }

    /// Renders a snapshot document, or the changes since `since` when that version is kept.
    static func snapshotRenderer(board: PublicationBoard, key: String, since: UInt64?) -> @Sendable (PublicationBoard.Document) -> HTTPResponse {
        { document in
            guard since != nil, document.snapshot != nil else { return documentResponse(document) }
            let (_, body) = snapshotBody(board: board, key: key, since: since, document: document)
            return versionedJSON(body, version: document.version)
        }
    }

    /// A snapshot document's changes since `since` (`isChanges`), or the whole snapshot when
    /// `since` is `nil` or no longer kept.
    static func snapshotBody(board: PublicationBoard, key: String, since: UInt64?, document: PublicationBoard.Document) -> (isChanges: Bool, body: Data) {
        guard let since, let now = document.snapshot else { return (false, document.body) }
        let old: Snapshot
        if since == document.version {
            old = now
        } else {
            let kept = board.history(.snapshot(key)).last { $0.version <= since }
            guard let keptSnapshot = kept?.snapshot, since < document.version else { return (false, document.body) }
            old = keptSnapshot
        }
        let changes = SnapshotChangesDocument(version: document.version, since: since, changes: SnapshotDifference(from: old, to: now))
        guard let body = try? JSONCoding.encode(changes) else { return (false, document.body) }
        return (true, body)
    }
}

/// The changes of a snapshot since a version: `{"kind": "changes", "version", "since", "changes"}`.
struct SnapshotChangesDocument: Encodable {
    let kind = "changes"
    let version: UInt64
    let since: UInt64
    let changes: SnapshotDifference
}
