import Foundation
import Synchronization

/// A response body sent as it is produced, for as long as its producer has more to say, with
/// no thread held while it waits (the body of a Server-Sent Events stream).
///
/// The runtime asks the producer for the next message whenever the connection can take more
/// bytes. A producer with nothing new answers ``Next/nothingNew``: the connection is then
/// suspended until ``wake()`` says there is something new, until a heartbeat is due, or until
/// the stream ends. At most one message is held per stream: a client that reads slowly is sent
/// what the producer has when it is asked next, never a queue.
///
/// The producer is called on a polling thread, one call at a time; it must be quick and must
/// not block. `onFinish` is called once, when the runtime lets go of the stream: its producer
/// ended it, its client went away or was cut off at the connection timeout, or the server
/// stopped.
package final class ResponseStream: Sendable {
    /// What the producer has to send.
    package enum Next: Sendable {
        /// One whole message.
        case message(Data)
        /// Nothing new: the stream waits for ``ResponseStream/wake()``.
        case nothingNew
        /// The stream ends after what was sent (the producer is not asked again).
        case end
    }

    /// What a call of ``fill(_:suspend:)`` did.
    enum Fill: Equatable {
        /// Copied this many bytes.
        case copied(Int)
        /// Nothing to send: the connection was suspended.
        case suspended
        /// The stream is over.
        case ended
        /// The stream is cut off (its client went away).
        case aborted
    }

    /// How a stream ends.
    enum Ending: Comparable {
        /// After what it holds is sent.
        case clean
        /// At once, with the connection closed.
        case abort
    }

    /// Where the connection stands.
    private enum Phase {
        /// Sending, or about to ask the producer.
        case running
        /// Suspended until resumed.
        case suspended
        /// Resumed; the runtime has not called the stream again yet.
        case resuming
    }

    /// What the runtime gives a stream once it is queued on a connection.
    protocol Link: Sendable {
        /// Suspends the connection; called on its polling thread, from the content reader.
        func suspend()
        /// Resumes the suspended connection (exactly once per suspension).
        func resume()
        /// Whether the client is still there; called only while the connection is suspended.
        func isClientThere() -> Bool
        /// Told when the stream's connection is suspended (+1) and when it is no longer (-1).
        func countSuspended(_ change: Int)
        /// Told once, when the runtime lets go of `stream`.
        func released(_ stream: ResponseStream)
    }

    private struct State {
        var pending = Data()
        var sent = 0
        var phase = Phase.running
        var wakeRequested = false
        var heartbeatDue = false
        var ending: Ending?
        var link: (any Link)?
        var isFinished = false
    }

    private let producer: @Sendable () -> Next
    private let onFinish: @Sendable () -> Void
    private let heartbeat: Data
    private let state = Mutex(State())

    /// Makes a stream whose messages come from `producer`; `heartbeat` is sent when a heartbeat
    /// is due and the producer has nothing new (a comment, for Server-Sent Events).
    package init(heartbeat: Data, producer: @escaping @Sendable () -> Next, onFinish: @escaping @Sendable () -> Void) {
        self.heartbeat = heartbeat
        self.producer = producer
        self.onFinish = onFinish
    }

    deinit {
        // A stream never queued (its client went away before the answer was sent) is let go of here.
        finish()
    }

    /// Tells the stream that its producer has something new: it is asked again soon (at once
    /// when the connection is suspended, otherwise once what it is sending is sent).
    package func wake() {
        let suspended: (any Link)? = state.withLock { state in
            guard case .suspended = state.phase else {
                state.wakeRequested = true
                return nil
            }
            return Self.resumeIfSuspended(&state)
        }
        suspended?.resume()
    }

    /// Whether the runtime has let go of the stream.
    package var isFinished: Bool {
        state.withLock { $0.isFinished }
    }

    /// Connects the stream to its connection; a stream ended before (the server is stopping)
    /// ends at once.
    func attach(_ link: any Link, ending: Ending?) {
        state.withLock { state in
            state.link = link
            if let ending { state.ending = max(state.ending ?? ending, ending) }
        }
    }

    /// Sends the heartbeat when nothing else is sent before the stream next waits.
    func requestHeartbeat() {
        let suspended = state.withLock { state in
            state.heartbeatDue = true
            return Self.resumeIfSuspended(&state)
        }
        suspended?.resume()
    }

    /// Ends the stream: cleanly after what it holds, or at once.
    func end(_ ending: Ending) {
        let suspended = state.withLock { state in
            state.ending = max(state.ending ?? ending, ending)
            return Self.resumeIfSuspended(&state)
        }
        suspended?.resume()
    }

    /// Cuts off a suspended stream whose client has gone away. Returns whether it did.
    func cutOffIfClientGone() -> Bool {
        let suspended: (any Link)? = state.withLock { state in
            // Only while suspended: the connection cannot close then, so its socket is its own.
            guard case .suspended = state.phase, let link = state.link, !link.isClientThere() else { return nil }
            state.ending = .abort
            return Self.resumeIfSuspended(&state)
        }
        suspended?.resume()
        return suspended != nil
    }

    /// Marks a suspended stream as resuming and returns its link, to be resumed once out of
    /// the lock; `nil` when the stream is not suspended.
    private static func resumeIfSuspended(_ state: inout State) -> (any Link)? {
        guard case .suspended = state.phase else { return nil }
        state.phase = .resuming
        return state.link
    }

    /// Fills `buffer` with the next bytes to send, asking the producer when the stream holds
    /// none. With nothing to send, suspends the connection (under the lock, so that no wake can
    /// slip in between) and reports it. Called by the runtime on the connection's polling thread.
    func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Fill {
        state.withLock { state in
            if case .running = state.phase { return }
            state.phase = .running
            state.link?.countSuspended(-1)
        }
        while true {
            let step: Fill? = state.withLock { state in
                if state.ending == .abort { return .aborted }
                if state.sent < state.pending.count {
                    let count = min(buffer.count, state.pending.count - state.sent)
                    state.pending.withUnsafeBytes { bytes in
                        buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + state.sent, byteCount: count)
                    }
                    state.sent += count
                    // A message sent whole is let go of at once: a stream that waits holds none.
                    if state.sent == state.pending.count {
                        state.pending = Data()
                        state.sent = 0
                    }
                    return .copied(count)
                }
                if state.ending == .clean { return .ended }
                // Cleared before the producer is asked: a wake during the call is not lost.
                state.wakeRequested = false
                return nil
            }
            if let step { return step }
            let next = producer()
            let suspended: Bool = state.withLock { state in
                switch next {
                case .message(let data):
                    state.pending = data
                    state.sent = 0
                    state.heartbeatDue = false
                case .end:
                    state.ending = max(state.ending ?? .clean, .clean)
                case .nothingNew:
                    if state.wakeRequested || state.ending != nil { return false }
                    if state.heartbeatDue {
                        state.heartbeatDue = false
                        state.pending = heartbeat
                        state.sent = 0
                        return false
                    }
                    guard let link = state.link else { return true }
                    link.suspend()
                    state.phase = .suspended
                    state.link?.countSuspended(1)
                    return true
                }
                return false
            }
            if suspended { return .suspended }
        }
    }

    /// The messages the producer has now, up to `limit` of them, then the end of the stream: for
    /// a caller without a connection (the in-process router), which reads what a client would
    /// read first and lets go.
    package func takeAvailable(limit: Int = 64) -> Data {
        var taken = Data()
        for _ in 0..<limit {
            guard case .message(let data) = producer() else { break }
            taken.append(data)
        }
        finish()
        return taken
    }

    /// Called once by the runtime when it lets go of the stream.
    func finish() {
        let link: (any Link)?? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            if case .running = state.phase {} else { state.link?.countSuspended(-1) }
            state.phase = .running
            state.pending = Data()
            // Dropped, so that nothing the runtime gave the stream outlives its connection.
            defer { state.link = nil }
            return .some(state.link)
        }
        guard let link else { return }
        // The owner's release first: once the stream no longer counts as open, what the owner
        // held for it (a parked request's place) is given back too.
        onFinish()
        link?.released(self)
    }
}
