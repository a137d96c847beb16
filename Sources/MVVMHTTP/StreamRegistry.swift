import Foundation
import Synchronization

/// The streamed responses a server has open: it ends them when the server stops, sends them
/// their heartbeats and cuts off those whose client went away while they waited.
final class StreamRegistry: Sendable {
    /// Streams whose connection is suspended, or resumed and not called again yet: libmicrohttpd
    /// must not be stopped while any is.
    let suspended = Atomic<Int>(0)
    /// Streams cut off because their client went away while they waited.
    let cutOff = Atomic<Int>(0)
    private let state = Mutex<(stopping: Bool, streams: [ObjectIdentifier: ResponseStream])>((false, [:]))

    /// Registers a stream queued on a connection and gives it its link; a stream opened while
    /// the server stops ends at once.
    func opened(_ stream: ResponseStream, link: some ResponseStream.Link) {
        let stopping = state.withLock { state in
            state.streams[ObjectIdentifier(stream)] = stream
            return state.stopping
        }
        stream.attach(link, ending: stopping ? .clean : nil)
    }

    /// Forgets a stream the runtime let go of.
    func closed(_ id: ObjectIdentifier) {
        _ = state.withLock { $0.streams.removeValue(forKey: id) }
    }

    /// The streams open now.
    var count: Int {
        state.withLock { $0.streams.count }
    }

    /// Ends every stream after what it holds, and every stream opened from now on at once.
    func endAll() {
        let streams = state.withLock { state in
            state.stopping = true
            return Array(state.streams.values)
        }
        for stream in streams {
            stream.end(.clean)
        }
    }

    /// Lets streams open again (after a stop, so that the server can be started again).
    func reopen() {
        state.withLock { $0.stopping = false }
    }

    /// Sends every stream its heartbeat every `heartbeatSeconds`, and cuts off the waiting
    /// streams whose client went away (a suspended connection is not watched by libmicrohttpd)
    /// at least every half `connectionTimeoutSeconds`, until the calling task is cancelled.
    func tend(heartbeatSeconds: Double, connectionTimeoutSeconds: Int) async {
        let heartbeat = max(0.05, heartbeatSeconds)
        let check = min(heartbeat, max(0.05, Double(connectionTimeoutSeconds) / 2))
        var sinceHeartbeat = 0.0
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(Int64(check * 1000)))
            sinceHeartbeat += check
            let streams = state.withLock { Array($0.streams.values) }
            for stream in streams where stream.cutOffIfClientGone() {
                cutOff.add(1, ordering: .relaxed)
            }
            guard sinceHeartbeat >= heartbeat - check / 2 else { continue }
            sinceHeartbeat = 0
            for stream in streams {
                stream.requestHeartbeat()
            }
        }
    }
}
