import Foundation
import MVVMCore
import MVVMHTTP
import Synchronization

/// What a Server-Sent Events stream of one topic of a session's board sends: the message for
/// the topic's current document whenever it is not the one last sent, and `gone` once the
/// board is closed (the session was deleted or expired).
///
/// It is its stream's producer: asked on a polling thread when the stream can send, it reads
/// the board; with nothing new it registers one waiter on the board, whose wake-up wakes the
/// stream. A client that reads slowly is sent the newest document when it is asked next, so
/// intermediate versions may be skipped.
final class TopicFeed: Sendable {
    /// What the feed sends for a document.
    enum Message {
        /// A message to send.
        case send(ServerSentEvent)
        /// A message to send, and then the stream ends (what the client follows is gone).
        case last(ServerSentEvent)
    }

    /// Makes the message for `current`, given the version of the document last sent (`nil`
    /// before the first, unless the client said which one it has).
    typealias Render = @Sendable (_ current: PublicationBoard.Document, _ lastSent: UInt64?) -> Message

    private struct State {
        var lastSent: UInt64?
        /// The `id` of the last message sent.
        var lastID: UInt64 = 0
        var waiting: PublicationBoard.WaitToken?
        var isOver = false
        var isFinished = false
        weak var stream: ResponseStream?
    }

    private let board: PublicationBoard
    private let topic: PublicationBoard.Topic
    private let render: Render
    private let place: Sessions.ParkingPlace
    /// The document sent first when the topic has none yet (the event feed of a session
    /// without events).
    private let fallback: PublicationBoard.Document?
    private let state: Mutex<State>

    /// A feed that starts after `lastSent` (the client's `Last-Event-ID`, if any); its parking
    /// `place` is given back once, when its stream is let go of.
    init(
        board: PublicationBoard, topic: PublicationBoard.Topic, after lastSent: UInt64?, fallback: PublicationBoard.Document? = nil,
        render: @escaping Render, place: Sessions.ParkingPlace
    ) {
        self.board = board
        self.fallback = fallback
        self.topic = topic
        self.render = render
        self.place = place
        state = Mutex(State(lastSent: lastSent, lastID: lastSent ?? 0))
    }

    /// The stream that sends this feed, made once.
    func makeStream() -> ResponseStream {
        let stream = ResponseStream(heartbeat: ServerSentEvent.heartbeat, producer: { [self] in next() }, onFinish: { [self] in finish() })
        state.withLock { $0.stream = stream }
        return stream
    }

    /// The next message, or nothing new (a waiter is then registered), or the end.
    func next() -> ResponseStream.Next {
        let (lastSent, isOver, isWaiting) = state.withLock { ($0.lastSent, $0.isOver, $0.waiting != nil) }
        if isOver { return .end }
        if let current = board.document(topic) ?? (lastSent == nil ? fallback : nil), current.version != lastSent {
            return send(render(current, lastSent), version: current.version)
        }
        if board.isClosed { return goneMessage() }
        // A waiter already registered (a heartbeat asked) wakes the stream in time.
        if isWaiting { return .nothingNew }
        let registration = board.waitForChange(from: lastSent ?? 0, on: topic) { [weak self] _ in
            self?.wokenUp()
        }
        switch registration {
        case .immediate(.newer(let current)):
            return send(render(current, lastSent), version: current.version)
        case .immediate:
            return goneMessage()
        case .waiting(let token):
            let finished = state.withLock { state in
                state.waiting = token
                return state.isFinished
            }
            // Let go of meanwhile: nothing would cancel the waiter.
            if finished { board.cancel(token) }
            return .nothingNew
        }
    }

    private func send(_ message: Message, version: UInt64) -> ResponseStream.Next {
        let event: ServerSentEvent
        let isLast: Bool
        switch message {
        case .send(let sent): (event, isLast) = (sent, false)
        case .last(let sent): (event, isLast) = (sent, true)
        }
        state.withLock { state in
            state.lastSent = version
            state.lastID = event.id
            state.isOver = isLast
        }
        return .message(event.bytes)
    }

    /// The `gone` message, after which the stream ends; a clean end instead when the session
    /// was handed over to another server (the client connects again, with its Last-Event-ID,
    /// and reaches the session's new holder).
    private func goneMessage() -> ResponseStream.Next {
        if board.wasHandedOver { return .end }
        let lastID = state.withLock { state in
            state.isOver = true
            return state.lastID
        }
        let problem = HTTPError(.sessionGone, detail: "The session was deleted or expired; create a new one.").response.body
        return .message(ServerSentEvent(id: lastID, kind: .gone, data: problem).bytes)
    }

    private func wokenUp() {
        let stream = state.withLock { state in
            state.waiting = nil
            return state.stream
        }
        stream?.wake()
    }

    /// The stream was let go of: cancels the waiter and gives back the stream's place.
    private func finish() {
        let token: PublicationBoard.WaitToken?? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            defer { state.waiting = nil }
            return .some(state.waiting)
        }
        guard let token else { return }
        if let token { board.cancel(token) }
        place.release()
    }
}
