import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON

/// Server-Sent Events: a GET of a long-pollable document with `Accept: text/event-stream`
/// answers a stream of its versions instead of one version.
extension API {
    /// The reply that opens a stream of a topic of the session's board: `200` with a
    /// ``ServerSentEvent`` stream that starts after `after` (the client's `Last-Event-ID` or
    /// `since`). The stream is the handle that sends later versions. A stream takes a parked
    /// request's place, on the session and in all, for as long as it is open; beyond either cap
    /// it is refused with 503 and `Retry-After`.
    func openStream(
        _ session: Session, _ topic: PublicationBoard.Topic, after: UInt64?, fallback: PublicationBoard.Document? = nil,
        render: @escaping TopicFeed.Render
    ) -> Reply {
        guard let place = sessions.reserveParking(for: session) else {
            return .problem(HTTPError.capacity("Too many requests are parked or streamed; retry shortly."))
        }
        let feed = TopicFeed(board: session.board, topic: topic, after: after, fallback: fallback, render: render, place: place)
        return .response(.streaming(feed.makeStream(), headers: ServerSentEvent.headers))
    }

    /// The reply that opens a stream of a scene's state, making its view model first when it has
    /// none (not for an observer, which gets 404).
    func streamState(_ session: Session, key: String, after: UInt64?, isObserver: Bool) -> Reply {
        let render = Self.documentEvents(.state)
        if session.board.document(.scene(key)) != nil {
            return openStream(session, .scene(key), after: after, render: render)
        }
        return .onContext(session.context) { [self] context in
            _ = try Self.state(of: key, in: context, isObserver: isObserver)
            return openStream(session, .scene(key), after: after, render: render)
        }
    }

    /// The reply that opens a stream of a scene's snapshot, making its view model first when it
    /// has none (not for an observer, which gets 404); 404 when the scene publishes no snapshot.
    func streamSnapshot(_ session: Session, key: String, after: UInt64?, isObserver: Bool) -> Reply {
        let render = Self.snapshotEvents(board: session.board, key: key)
        if session.board.document(.snapshot(key)) != nil {
            return openStream(session, .snapshot(key), after: after, render: render)
        }
        return .onContext(session.context) { [self] context in
            _ = try Self.state(of: key, in: context, isObserver: isObserver)
            guard session.board.document(.snapshot(key)) != nil else {
                throw HTTPError(.snapshotNotFound, detail: "The scene '\(key)' publishes no snapshot.")
            }
            return openStream(session, .snapshot(key), after: after, render: render)
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
            let (isChanges, body) = Documents.snapshotBody(board: board, key: key, since: lastSent, document: current)
            return .send(ServerSentEvent(id: current.version, kind: isChanges ? .changes : .snapshot, data: body))
        }
    }

    /// The render of an event-feed stream: the events after the sequence number last sent, up
    /// to the published ones; when those are no longer kept, a last `gone` message with the
    /// `events-expired` problem.
    static func eventFeedEvents(_ events: EventLog) -> TopicFeed.Render {
        { current, lastSent in
            let since = lastSent ?? events.lastDroppedSeq
            guard let document = Documents.eventsDocument(events, after: since, publishedUpTo: current.version) else {
                let problem = HTTPError(
                    .eventsExpired,
                    detail: "Events after \(since) are no longer kept; re-read the state and navigation, then follow the events from their version.",
                    member: "since")
                return .last(ServerSentEvent(id: since, kind: .gone, data: problem.response.body))
            }
            return .send(ServerSentEvent(id: document.version, kind: .events, data: (try? JSONCoding.encode(document)) ?? Data("{}".utf8)))
        }
    }
}
