import Foundation
import Logging
import MVVMSupport
import Synchronization

/// Handles every request the server receives and answers it through the responder.
///
/// It is called on one of libmicrohttpd's polling threads and must not block: answer at
/// once from state it can read synchronously, or return and answer later from any thread.
/// Work the handler leaves on `thread` runs there before the answer is sent (``PollingThread``).
package typealias RequestHandler = @Sendable (consuming HTTPRequest, Responder, PollingThread) -> Void

/// An HTTP/1.1 server on libmicrohttpd, with requests that can be parked without a thread.
///
/// `start()` binds and starts the polling threads; ``runTimers()``, run by the owner's task for
/// as long as the server serves, answers parked requests whose deadline passed and cuts off
/// slow clients; `stop()` answers every parked request (503), stops the daemon and returns once
/// its threads are gone, without blocking the caller's thread meanwhile.
package final class HTTPServer: Sendable {
    /// The settings the server was made with.
    package let configuration: HTTPServerConfiguration
    let core: ServerCore
    private let daemon = Mutex<MicroHTTPDaemon?>(nil)

    /// Makes a server; nothing listens until ``start()``.
    package init(configuration: HTTPServerConfiguration, logger: Logger, handler: @escaping RequestHandler) {
        self.configuration = configuration
        core = ServerCore(configuration: configuration, logger: logger, handler: handler)
    }

    /// Answers the parked requests whose deadline passed and cuts off clients too slow to send
    /// a request, until the calling task is cancelled: parked requests never time out in
    /// libmicrohttpd, so without this a request whose client went away stays parked.
    package func runTimers() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.core.sweepDeadlines() }
            group.addTask { await self.core.reaper.run() }
            group.addTask {
                await self.core.streams.tend(
                    heartbeatSeconds: self.configuration.streamHeartbeatSeconds, connectionTimeoutSeconds: self.configuration.connectionTimeoutSeconds
                )
            }
        }
    }

    /// Binds the address and starts serving.
    /// - Throws: ``HTTPServerError`` when the host is not an address, the port is taken, or an
    ///   allowed host or origin is not one.
    package func start() throws {
        if case .failure(let refusal) = core.clients { throw HTTPServerError.invalidAllowedEntry(refusal) }
        try daemon.withLock { daemon in
            guard daemon == nil else { throw HTTPServerError.alreadyStarted }
            daemon = try MicroHTTPDaemon(core: core)
        }
    }

    /// Adds a header field to every answer the server sends from now on (its name, say); call it
    /// before the port is made known to clients.
    package func addResponseHeader(_ name: String, _ value: String) {
        core.fixedHeaders.add(name, value)
    }

    /// The port the server listens on (the real one when started with port 0), or 0 when stopped.
    package var port: Int {
        daemon.withLock { $0?.port ?? 0 }
    }

    /// The number of requests parked right now.
    package var parkedRequestCount: Int {
        core.parkedCount
    }

    /// Connections cut off because their request took longer than the connection timeout to arrive.
    package var slowClientsCutCount: Int {
        core.reaper.cutCount.load(ordering: .relaxed)
    }

    /// Connections open right now.
    package var openConnectionCount: Int {
        core.openConnections.load(ordering: .relaxed)
    }

    /// Streamed responses open right now.
    package var openStreamCount: Int {
        core.streams.count
    }

    /// Streams cut off because their client went away while they waited.
    package var streamsCutOffCount: Int {
        core.streams.cutOff.load(ordering: .relaxed)
    }

    /// Parked requests answered by their own deadline since start (e.g. clients that went away).
    package var expiredParkCount: Int {
        core.expiredParks.load(ordering: .relaxed)
    }

    /// Answers every parked request with 503, ends every stream (waiting a second at most for
    /// their last bytes to go), stops the daemon and waits for its threads. It waits without
    /// blocking the calling thread; cancelling the calling task does not cut the stop short.
    package func stop() async {
        let running = daemon.withLock { daemon -> MicroHTTPDaemon? in
            defer { daemon = nil }
            return daemon
        }
        guard let running else { return }
        core.answerAllParked()
        // The ended streams send their last chunk: a second at most (a client that does not
        // read holds its connection until the daemon stops and closes it).
        await waitUntil(atMost: .seconds(1)) { core.streams.count == 0 }
        await running.stop {
            core.unfinishedParks.load(ordering: .acquiring) == 0 && core.streams.suspended.load(ordering: .acquiring) == 0
        }
        core.reopen()
    }
}
