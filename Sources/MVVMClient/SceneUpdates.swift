import Foundation
import OpenAPIRuntime

/// How scene updates reach the client (``SceneClient/updates(wait:delivery:)``).
public enum UpdateDelivery: Sendable, Equatable {
    /// A Server-Sent Events stream when the client talks to the server over `URLSession` and
    /// the server streams; long-polls otherwise, and once the stream has ended.
    case automatic
    /// Long-polls only.
    case longPoll
}

/// The versions of a scene's state as they come (``SceneClient/updates(wait:delivery:)``): the
/// current one first, then each newer one, read from a Server-Sent Events stream or by
/// long-polling. Ends by throwing the server's problem (`session-gone` when the session is
/// deleted); a task that is cancelled stops reading, and closes the stream.
public struct SceneUpdates<Input: Codable & Sendable, Output: Decodable & Sendable>: AsyncSequence, Sendable {
    /// One version of the state.
    public typealias Element = SceneState<Input, Output>

    let scene: SceneClient<Input, Output>
    let wait: Duration
    let delivery: UpdateDelivery

    /// The messages of a stream, as swift-openapi-runtime decodes them.
    typealias StreamEvents = ServerSentEventsDeserializationSequence<
        ServerSentEventsLineDeserializationSequence<AsyncThrowingStream<ArraySlice<UInt8>, any Error>>
    >

    /// Reads the versions.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let scene: SceneClient<Input, Output>
        let wait: Duration
        var last: UInt64?
        /// Whether a stream may still be opened (once: after it ends, the iterator long-polls).
        var mayStream: Bool
        var stream: StreamEvents.AsyncIterator?

        /// The next version: at once for the first, otherwise once the server has a newer one.
        public mutating func next() async throws -> SceneState<Input, Output>? {
            try Task.checkCancellation()
            if mayStream {
                mayStream = false
                stream = try await openStream()
            }
            if stream != nil, let state = try await nextStreamed() {
                return state
            }
            try Task.checkCancellation()
            guard let last else {
                let state = try await scene.state()
                self.last = state.version
                return state
            }
            while true {
                let state = try await scene.next(after: last, wait: wait)
                try Task.checkCancellation()
                if state.version != last {
                    self.last = state.version
                    return state
                }
            }
        }

        /// Opens the scene's state stream; `nil` when the client cannot stream or the server
        /// answered a document instead (then the iterator long-polls). A refusal throws its problem.
        private func openStream() async throws -> StreamEvents.AsyncIterator? {
            guard let opener = scene.session.streams else { return nil }
            let path = "/sessions/\(scene.session.id)/scenes/\(scene.key)"
            let answer: EventStreamOpener.Answer
            do {
                answer = try await opener.open(path: path, lastEventID: last)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // A stream that cannot be opened: the long-poll tells what is wrong, if anything.
                return nil
            }
            switch answer {
            case .stream(let bytes):
                return bytes.asDecodedServerSentEvents().makeAsyncIterator()
            case .document(let status, let body):
                guard status >= 400 else { return nil }
                throw ProblemDetails.answered(
                    body, status: status, otherwise: "The server answered \(status) without problem details to a stream of \(path).")
            }
        }

        /// The next newer state from the stream; `nil` when the stream ended (without `gone`).
        private mutating func nextStreamed() async throws -> SceneState<Input, Output>? {
            while let event = try await nextEvent() {
                let data = Data((event.data ?? "").utf8)
                switch event.event {
                case "state":
                    let state = try SceneState<Input, Output>(try JSONDecoder().decode(Components.Schemas.StateDocument.self, from: data))
                    guard state.version != last else { continue }
                    last = state.version
                    return state
                case "gone":
                    stream = nil
                    throw (try? JSONDecoder().decode(ProblemDetails.self, from: data))
                        ?? ProblemDetails(
                            type: "https://mvvmserver.dev/problems/session-gone", title: "Session gone", status: 410,
                            detail: "The session was deleted or expired.")
                default:
                    continue
                }
            }
            stream = nil
            return nil
        }

        /// The stream's next message; `nil` when it ended or failed (a failed stream is
        /// followed by long-polls, which report what is wrong).
        private mutating func nextEvent() async throws -> ServerSentEvent? {
            do {
                return try await stream?.next(isolation: #isolation)
            } catch {
                try Task.checkCancellation()
                return nil
            }
        }
    }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(scene: scene, wait: wait, last: nil, mayStream: delivery == .automatic, stream: nil)
    }
}
