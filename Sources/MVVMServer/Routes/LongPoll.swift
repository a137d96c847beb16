import MVVMCore
import MVVMHTTP

/// Long-polls: a GET with `since` and `wait` that waits for a newer version.
extension API {
    /// The reply to a read of a versioned document: the document now, or, when the client asks
    /// to wait for a version newer than `current`, a wait on the session's board until one is
    /// published or the wait runs out (then the current document answers).
    func poll(
        _ session: Session, _ topic: PublicationBoard.Topic, _ poll: PollParameters, current: PublicationBoard.Document,
        render: @escaping @Sendable (PublicationBoard.Document) -> HTTPResponse
    ) -> Reply {
        guard let since = poll.since, let wait = poll.wait, wait > .zero, since == current.version else {
            return .response(render(current))
        }
        guard let place = sessions.reserveParking(for: session) else {
            return .problem(.parkingFull)
        }
        let metrics = self.metrics
        return .later { handle in
            let parked = ParkedPoll(board: session.board, topic: topic, current: current, render: render, place: place)
            let registration = parked.board.waitForNewer(than: since, on: topic) { outcome in
                parked.end(outcome, answering: handle, gone: "The session was deleted while this request waited.")
            }
            switch registration {
            case .immediate(let outcome):
                parked.end(outcome, answering: handle, gone: "The session was deleted.")
            case .waiting(let token):
                handle.setDeadline(after: wait) {
                    if parked.board.cancel(token) {
                        parked.place.release()
                        metrics.expiredLongPolls.increment()
                    }
                    return parked.render(parked.board.document(parked.topic) ?? parked.current)
                }
            }
        }
    }
}

/// A long-poll waiting on a session's board: what its answer needs, in one object, which the
/// closures that wake it and time it out share. It does not hold the request's answer handle:
/// the request's deadline holds this object, so that would be a cycle.
private final class ParkedPoll: Sendable {
    let board: PublicationBoard
    let topic: PublicationBoard.Topic
    /// The document current when the wait began: the answer when nothing newer comes.
    let current: PublicationBoard.Document
    let render: @Sendable (PublicationBoard.Document) -> HTTPResponse
    let place: Sessions.ParkingPlace

    init(
        board: PublicationBoard, topic: PublicationBoard.Topic, current: PublicationBoard.Document,
        render: @escaping @Sendable (PublicationBoard.Document) -> HTTPResponse, place: Sessions.ParkingPlace
    ) {
        self.board = board
        self.topic = topic
        self.current = current
        self.render = render
        self.place = place
    }

    /// Answers the wait's outcome through `handle` (the session's end answers 410 with `gone`,
    /// unless it was handed over to another server, where it goes on: then the current
    /// document) and gives the parking place back.
    func end(_ outcome: PublicationBoard.WaitOutcome, answering handle: LaterAnswer, gone: String) {
        place.release()
        switch outcome {
        case .newer(let document): handle.answer(render(document))
        case .closed where board.wasHandedOver: handle.answer(render(current))
        case .closed: handle.answer(HTTPError(.sessionGone, detail: gone))
        case .timedOut, .cancelled: handle.answer(render(current))
        }
    }
}
