import Foundation
import MVVMCore
import MVVMHTTP

/// Server-Sent Events: a GET of a long-pollable document with `Accept: text/event-stream`
/// answers a stream of its versions instead of one version.
extension Application {
    /// Opens a stream of a topic of the session's board: answers `200` with a
    /// ``ServerSentEvent`` stream that starts after `after` (the client's `Last-Event-ID` or
    /// `since`). A stream takes a parked request's place, on the session and in all, for as
    /// long as it is open; beyond either cap it is refused with 503 and `Retry-After`.
    func openStream(_ session: Session, _ topic: PublicationBoard.Topic, after: UInt64?, fallback: PublicationBoard.Document? = nil, responder: Responder, render: @escaping TopicFeed.Render) {
        guard let release = reserveParking(for: session) else {
            responder.answer(HTTPError.capacity("Too many requests are parked or streamed; retry shortly."))
            return
        }
        let feed = TopicFeed(board: session.board, topic: topic, after: after, fallback: fallback, render: render, release: release)
        responder.answer(.streaming(feed.makeStream(), headers: ServerSentEvent.headers))
    }

    /// Opens a stream of a scene's state, making its view model first when it has none.
    func streamState(_ session: Session, key: String, after: UInt64?, _ routed: RoutedRequest, _ responder: Responder) {
        let render = Self.documentEvents(.state)
        if session.board.document(.scene(key)) != nil {
            openStream(session, .scene(key), after: after, responder: responder, render: render)
            return
        }
        onContext(session.context, routed, responder) { [self] context in
            _ = try context.state(of: key)
            openStream(session, .scene(key), after: after, responder: responder, render: render)
            return nil
        }
    }

    /// Opens a stream of a scene's snapshot, making its view model first when it has none; 404
    /// when the scene publishes no snapshot.
    func streamSnapshot(_ session: Session, key: String, after: UInt64?, _ routed: RoutedRequest, _ responder: Responder) {
        let render = Self.snapshotEvents(board: session.board, key: key)
        if session.board.document(.snapshot(key)) != nil {
            openStream(session, .snapshot(key), after: after, responder: responder, render: render)
            return
        }
        onContext(session.context, routed, responder) { [self] context in
            _ = try context.state(of: key)
            guard session.board.document(.snapshot(key)) != nil else {
                throw HTTPError(.snapshotNotFound, detail: "The scene '\(key)' publishes no snapshot.")
            }
            openStream(session, .snapshot(key), after: after, responder: responder, render: render)
            return nil
        }
    }

    /// The render of a stream of published documents sent as they are (state, navigation).
    static func documentEvents(_ kind: ServerSentEvent.Kind) -> TopicFeed.Render {
        { current, _ in .send(ServerSentEvent(id: current.version, kind: kind, data: current.body)) }
    }

    /// The render of a snapshot stream: the whole snapshot first (or when the version the
    /// client has is no longer kept), then the changes since the version last sent.
    static func snapshotEvents(board: PublicationBoard, key: String) -> TopicFeed.Render {
        { current, lastSent in
            let (isChanges, body) = snapshotBody(board: board, key: key, since: lastSent, document: current)
            return .send(ServerSentEvent(id: current.version, kind: isChanges ? .changes : .snapshot, data: body))
        }
    }

    /// The render of an event-feed stream: the events after the sequence number last sent, up
    /// to the published ones; when those are no longer kept, a last `gone` message with the
    /// `events-expired` problem.
    static func eventFeedEvents(_ events: EventLog) -> TopicFeed.Render {
        { current, lastSent in
            let since = lastSent ?? events.lastDroppedSeq
            guard let document = eventsDocument(events, after: since, publishedUpTo: current.version) else {
                let problem = HTTPError(.eventsExpired, detail: "Events after \(since) are no longer kept; re-read the state and navigation, then follow the events from their version.", member: "since")
                return .last(ServerSentEvent(id: since, kind: .gone, data: problem.response.body))
            }
            return .send(ServerSentEvent(id: document.version, kind: .events, data: (try? JSONCoding.encode(document)) ?? Data("{}".utf8)))
        }
    }
}

/// What a GET asks of a stream: whether it asks for one, and the version it resumes after.
struct StreamRequest {
    /// The version the stream starts after: `Last-Event-ID`, else `since`; `nil` for neither.
    let after: UInt64?

    /// The stream a request asks for, or `nil` when it asks for a plain document (no `Accept`
    /// field preferring `text/event-stream`).
    /// A `Last-Event-ID` that is not a version is a 400 on a plain GET too.
    init?(_ request: HTTPRequest, poll: PollParameters) throws(HTTPError) {
        var lastEventID: UInt64?
        if let text = request.header(RequestHeaderField.lastEventID) {
            guard text.utf8.count <= 20, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let version = UInt64(text) else {
                throw HTTPError(.invalidParameter, detail: "'Last-Event-ID' must be a version: a whole number from 0 to 18446744073709551615.", member: "Last-Event-ID")
            }
            lastEventID = version
        }
        guard let accept = request.header(RequestHeaderField.accept), Self.prefersEventStream(accept) else { return nil }
        after = lastEventID ?? poll.since
    }

    /// Whether an `Accept` field asks for `text/event-stream` more than for JSON: it names it
    /// with a weight above 0 and above JSON's (a field that names both alike, as a generated
    /// client's does, gets JSON).
    static func prefersEventStream(_ accept: String) -> Bool {
        var stream = 0.0
        var json = 0.0
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first else { continue }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            switch type {
            case "text/event-stream": stream = max(stream, weight)
            case "application/json": json = max(json, weight)
            default: continue
            }
        }
        return stream > 0 && stream > json
    }
}
