import Foundation
import MVVMSupport
import Synchronization

/// What the runtime knows of one open connection, for cutting off slow clients.
final class ConnectionRecord: Sendable {
    /// The socket.
    let socket: Int32
    /// When the current request's first byte could have arrived (connection start, or the end
    /// of the previous request), in milliseconds of the monotonic clock.
    let requestStart: Atomic<UInt64>
    /// When the current request's header fields arrived (``MonotonicClock/nanoseconds``): what
    /// its answer's duration counts from.
    let requestArrived = Atomic<UInt64>(0)
    /// Whether the current request has arrived whole and is being handled (or is parked).
    let isHandling = Atomic<Bool>(false)
    /// Whether the reaper already shut the socket down.
    let isCut = Atomic<Bool>(false)

    init(socket: Int32, now: UInt64) {
        self.socket = socket
        requestStart = Atomic(now)
    }
}

/// Cuts off clients that take longer than the connection timeout to send one request.
///
/// libmicrohttpd's own timeout only measures inactivity, so a client that sends one byte a
/// second is never cut off by it. Every eighth of the timeout (a quarter of a second to one
/// second, ``checkInterval(timeoutMilliseconds:)``) the reaper shuts down the socket of each
/// connection whose request has been arriving for longer than the timeout; libmicrohttpd then
/// sees the connection end and closes it itself. Requests being handled or parked are exempt.
///
/// The socket is shut down while the connection table's lock is held, and a connection leaves
/// the table (under the same lock) before libmicrohttpd closes its socket, so a socket number
/// is never reused under the reaper's feet.
final class SlowClientReaper: Sendable {
    private let connections = Mutex<[ObjectIdentifier: ConnectionRecord]>([:])
    private let timeoutMilliseconds: UInt64
    /// Connections cut off.
    let cutCount = Atomic<Int>(0)

    init(timeoutMilliseconds: UInt64) {
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// Checks the connections every ``checkInterval(timeoutMilliseconds:)`` until the calling
    /// task is cancelled.
    func run() async {
        let interval = Self.checkInterval(timeoutMilliseconds: timeoutMilliseconds)
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(interval))
            cut(olderThan: timeoutMilliseconds)
        }
    }

    /// How often connections are checked: an eighth of the timeout, between a quarter of a
    /// second and one second (a client is cut at most that late; each check wakes a thread,
    /// which under load takes a core from the polling threads for a moment).
    static func checkInterval(timeoutMilliseconds: UInt64) -> UInt64 {
        min(max(timeoutMilliseconds / 8, 250), 1000)
    }

    private func cut(olderThan timeoutMilliseconds: UInt64) {
        let now = MonotonicClock.milliseconds
        connections.withLock { records in
            for record in records.values where !record.isHandling.load(ordering: .relaxed) && !record.isCut.load(ordering: .relaxed) {
                if now > record.requestStart.load(ordering: .relaxed) + timeoutMilliseconds {
                    record.isCut.store(true, ordering: .relaxed)
                    shutdown(record.socket, Int32(SHUT_RDWR))
                    cutCount.add(1, ordering: .relaxed)
                }
            }
        }
    }

    func opened(_ record: ConnectionRecord) {
        connections.withLock { $0[ObjectIdentifier(record)] = record }
    }

    func closed(_ record: ConnectionRecord) {
        _ = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(record)) }
    }
}
