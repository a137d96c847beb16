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
        guard let release = sessions.reserveParking(for: session) else {
            return .problem(.parkingFull)
        }
        let board = session.board
        let metrics = self.metrics
        return .later { handle in
            // A session handed over to another server goes on there: the current document, not a 410.
            let answer: @Sendable (PublicationBoard.WaitOutcome, _ gone: String) -> Void = { outcome, gone in
                release()
                switch outcome {
                case .newer(let document): handle.answer(render(document))
                case .closed where board.wasHandedOver: handle.answer(render(current))
                case .closed: handle.answer(HTTPError(.sessionGone, detail: gone))
                case .timedOut, .cancelled: handle.answer(render(current))
                }
            }
            let registration = board.waitForNewer(than: since, on: topic) { outcome in
                answer(outcome, "The session was deleted while this request waited.")
            }
            switch registration {
            case .immediate(let outcome):
                answer(outcome, "The session was deleted.")
            case .waiting(let token):
                handle.setDeadline(after: wait) {
                    if board.cancel(token) {
                        release()
                        metrics.expiredLongPolls.increment()
                    }
                    return render(board.document(topic) ?? current)
                }
            }
        }
    }
}
