import Foundation
import MVVMCore
import MVVMHTTP

/// `GET /sessions/{id}/navigation`, `POST /sessions/{id}/navigation/back` and
/// `GET /sessions/{id}/events`.
extension API {
    func addNavigationRoutes(to router: inout Router) {
        router.add("GET", "/sessions/{id}/navigation") { [self] routed in try readNavigation(routed) }
        router.add("POST", "/sessions/{id}/navigation/back", journaled { [self] routed in try goBack(routed) })
        router.add("GET", "/sessions/{id}/events") { [self] routed in try readEvents(routed) }
    }

    /// `GET …/navigation`: the navigation, a long-poll for a newer one, or a stream of them.
    func readNavigation(_ routed: RoutedRequest) throws -> Reply {
        let (session, poll, stream) = try documentRead(routed)
        guard let current = session.board.document(.navigation) else {
            throw HTTPError(.sessionGone, detail: "The session was deleted.")
        }
        if let stream {
            return openStream(session, .navigation, after: stream.after, render: Self.documentEvents(.navigation))
        }
        if poll.since == nil {
            return published(current, of: session)
        }
        return self.poll(session, .navigation, poll, current: current, render: Documents.response)
    }

    /// `POST …/navigation/back`: dismisses the modal or pops the stack; the navigation once saved.
    func goBack(_ routed: RoutedRequest) throws -> Reply {
        let session = try liveSession(routed)
        return saved.savingOnContext(session) { context in
            try context.back()
            guard let navigation = session.board.latestDocument(.navigation) else {
                throw HTTPError(.sessionGone, detail: "The session was deleted.")
            }
            return Documents.response(navigation)
        }
    }

    /// `GET …/events`: the events after `since`, a long-poll for newer ones, or a stream of them.
    func readEvents(_ routed: RoutedRequest) throws -> Reply {
        let (session, poll, stream) = try documentRead(routed)
        let events = session.context.events
        // Without `since`, every event still kept.
        let since = (stream?.after ?? poll.since) ?? events.lastDroppedSeq
        guard events.events(after: since) != nil else {
            throw HTTPError(
                .eventsExpired,
                detail: "Events after \(since) are no longer kept; re-read the state and navigation, then follow the events from their version.",
                member: "since")
        }
        // The events published: not those of a change still being saved.
        let published = session.board.document(.events)
        let current = published ?? PublicationBoard.Document(version: events.lastDroppedSeq, body: Data())
        if let stream {
            return openStream(session, .events, after: stream.after, fallback: current, render: Self.eventFeedEvents(events))
        }
        // Park only while nothing newer than `since` exists.
        let pollOnLast = PollParameters(since: poll.since == current.version ? poll.since : nil, wait: poll.wait)
        return self.poll(session, .events, pollOnLast, current: current) { document in
            guard let published = Documents.eventsDocument(events, after: since, publishedUpTo: document.version) else {
                return HTTPError(.eventsExpired, detail: "Events after \(since) are no longer kept; re-read the state.", member: "since").response
            }
            return .json(encoding: published, headers: [("Cache-Control", "no-store")])
        }
    }
}
