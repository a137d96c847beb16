import Foundation
import MVVMCore
import MVVMHTTP

/// `GET /sessions/{id}/navigation`, `POST /sessions/{id}/navigation/back` and
/// `GET /sessions/{id}/events`.
extension Application {
    func addNavigationRoutes(to router: inout Router) {
        router.add("GET", "/sessions/{id}/navigation") { [self] routed, responder in
            guard let session = liveSession(routed, responder) else { return }
            let poll: PollParameters
            do { poll = try PollParameters(routed.request.query, maxWait: configuration.maxWaitSeconds) } catch { responder.answer(HTTPError.from(error)); return }
            guard let current = session.board.document(.navigation) else {
                responder.answer(HTTPError(.sessionGone, detail: "The session was deleted."))
                return
            }
            let stream: StreamRequest?
            do { stream = try StreamRequest(routed.request, poll: poll) } catch { responder.answer(HTTPError.from(error)); return }
            if let stream {
                openStream(session, .navigation, after: stream.after, responder: responder, render: Self.documentEvents(.navigation))
                return
            }
            if poll.since == nil {
                answerPublished(current, of: session, responder)
                return
            }
            self.poll(session, .navigation, poll, current: current, responder: responder, render: Self.documentResponse)
        }

        router.add("POST", "/sessions/{id}/navigation/back") { [self] routed, responder in
            guard let session = liveSession(routed, responder) else { return }
            onContextSaving(session, routed, responder) { context in
                try context.back()
                guard let navigation = session.board.latestDocument(.navigation) else {
                    throw HTTPError(.sessionGone, detail: "The session was deleted.")
                }
                return Self.documentResponse(navigation)
            }
        }

        router.add("GET", "/sessions/{id}/events") { [self] routed, responder in
            guard let session = liveSession(routed, responder) else { return }
            let poll: PollParameters
            do { poll = try PollParameters(routed.request.query, maxWait: configuration.maxWaitSeconds) } catch { responder.answer(HTTPError.from(error)); return }
            let stream: StreamRequest?
            do { stream = try StreamRequest(routed.request, poll: poll) } catch { responder.answer(HTTPError.from(error)); return }
            let events = session.context.events
            // Without `since`, every event still kept.
            let since = (stream?.after ?? poll.since) ?? events.lastDroppedSeq
            guard events.events(after: since) != nil else {
                responder.answer(HTTPError(.eventsExpired, detail: "Events after \(since) are no longer kept; re-read the state and navigation, then follow the events from their version.", member: "since"))
                return
            }
            // The events published: not those of a change still being saved.
            let published = session.board.document(.events)
            let current = published ?? PublicationBoard.Document(version: events.lastDroppedSeq, body: Data())
            if let stream {
                openStream(session, .events, after: stream.after, fallback: current, responder: responder, render: Self.eventFeedEvents(events))
                return
            }
            // Park only while nothing newer than `since` exists.
            let pollOnLast = PollParameters(since: poll.since == current.version ? poll.since : nil, wait: poll.wait)
            self.poll(session, .events, pollOnLast, current: current, responder: responder) { document in
                guard let published = Self.eventsDocument(events, after: since, publishedUpTo: document.version) else {
                    return HTTPError(.eventsExpired, detail: "Events after \(since) are no longer kept; re-read the state.", member: "since").response
                }
                return .json(encoding: published, headers: [("Cache-Control", "no-store")])
            }
        }
    }

    /// The events after `since` that are published (up to `version`, the event feed's
    /// published version), or `nil` when those after `since` are no longer kept.
    static func eventsDocument(_ events: EventLog, after since: UInt64, publishedUpTo version: UInt64) -> EventsDocument? {
        guard let list = events.events(after: since) else { return nil }
        let published = list.prefix { $0.seq <= version }
        return EventsDocument(version: max(version, published.last?.seq ?? 0), events: Array(published))
    }
}

/// `{"version", "events": [...]}`: the events after the asked sequence number.
struct EventsDocument: Encodable {
    let version: UInt64
    let events: [ContextEvent]
}
