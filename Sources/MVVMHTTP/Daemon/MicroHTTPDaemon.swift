internal import CMicroHTTPD
import Foundation
import MVVMSupport

/// The libmicrohttpd daemon: with the other files of this folder, the only part of the framework
/// that touches libmicrohttpd's C API.
///
/// The daemon runs an internal polling thread pool on epoll with suspend/resume allowed.
/// Callbacks are file-private C functions that find their Swift owner through `Unmanaged` (the
/// access handler's work is in AccessHandler.swift):
/// the daemon's retain of the ``ServerCore`` is released only after `MHD_stop_daemon`
/// returned, and a request's ``RequestState`` (made only when it needs one) is released in the completion callback.
final class MicroHTTPDaemon: Sendable {
    /// A libmicrohttpd pointer that may cross threads.
    // Safe: libmicrohttpd documents MHD_resume_connection and MHD_stop_daemon as callable from
    // any thread, and the pointers stay valid for as long as this wrapper uses them (a suspended
    // connection cannot complete, and the daemon lives until stop()).
    struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// libmicrohttpd's own limit sits this far above ours, so that it keeps accepting and our
    /// accept policy can close the connections over our limit at once.
    static let connectionSlack = 64

    /// How many passes of the polling loop a request not yet answered by its handler waits
    /// before it is parked. Each pass is one call of the access handler (libmicrohttpd calls it
    /// again on its next pass while no answer is queued), so a request waiting for a long time
    /// costs two calls, not a busy loop. Measured on the inputs benchmark: about half the
    /// inputs are answered within one pass, and two passes served inputs 2% faster than one
    /// (four: no better).
    static let passesBeforeParking = 2

    private let daemon: Handle
    private let coreReference: Unmanaged<ServerCore>
    let port: Int

    init(core: ServerCore) throws {
        let configuration = core.configuration
        let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: configuration.port).bigEndian)
        guard (0...65535).contains(configuration.port), inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw HTTPServerError.invalidHost(configuration.host)
        }
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        let coreReference = Unmanaged.passRetained(core)
        let started = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                var settings = mvvm_daemon_settings(
                    flags: flags,
                    port: UInt16(configuration.port),
                    address: socketAddress,
                    connection_limit: UInt32(clamping: configuration.maxConnections + Self.connectionSlack),
                    connection_timeout_seconds: UInt32(clamping: configuration.connectionTimeoutSeconds),
                    connection_memory_limit: configuration.connectionMemoryLimitBytes,
                    thread_pool_size: UInt32(clamping: configuration.threads),
                    listen_backlog: UInt32(clamping: configuration.listenBacklog))
                return mvvm_start_daemon(&settings, acceptPolicy, connectionNotify, accessHandler, completedHandler, coreReference.toOpaque())
            }
        }
        guard let started else {
            let reason = errno == 0 ? "the port may be in use" : String(cString: strerror(errno))
            coreReference.release()
            throw HTTPServerError.cannotListen(host: host, port: configuration.port, reason: reason)
        }
        daemon = Handle(pointer: started)
        self.coreReference = coreReference
        port = Int(mvvm_daemon_port(started))
    }

    /// Waits until `drained()` says every parked request has completed (libmicrohttpd aborts the
    /// process when it stops with a suspended connection, and a resumed one would lose the answer
    /// not sent yet), then stops the daemon; returns when its threads are gone. Nothing blocks a
    /// thread of Swift's pool: `MHD_stop_daemon`, which joins the polling threads, runs on a
    /// thread of its own.
    func stop(drained: () -> Bool) async {
        await waitUntil(atMost: .seconds(10), drained)
        let daemon = daemon
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                MHD_stop_daemon(daemon.pointer)
                stopped.resume()
            }
            thread.name = "mvvmserver.http.stop"
            thread.start()
        }
        coreReference.release()
    }
}

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, version, uploadData, uploadSize, requestContext in
    guard let context, let connection, let url, let method, let version, let uploadSize, let requestContext else { return .NO }
    // Borrowed without a retain: the daemon holds its retain of the core until
    // MHD_stop_daemon has returned, so the core outlives every callback.
    return Unmanaged<ServerCore>.fromOpaque(context)._withUnsafeGuaranteedRef { core in
        handleAccess(
            core: core, connection: connection, url: url, method: method, version: version, uploadData: uploadData, uploadSize: uploadSize,
            requestContext: requestContext)
    }
}

private let acceptPolicy: MHD_AcceptPolicyCallback = { context, _, _ in
    guard let context else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    return core.openConnections.load(ordering: .relaxed) < core.configuration.maxConnections ? .YES : .NO
}

private let connectionNotify: MHD_NotifyConnectionCallback = { context, connection, socketContext, code in
    guard let context, let connection, let socketContext else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED {
        let record = ConnectionRecord(socket: mvvm_connection_fd(connection), now: MonotonicClock.milliseconds)
        socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
        core.connectionOpened(record)
    } else if let stored = socketContext.pointee {
        let record = Unmanaged<ConnectionRecord>.fromOpaque(stored)
        core.connectionClosed(record.takeUnretainedValue())
        record.release()
        socketContext.pointee = nil
    }
}

/// The connection's record, kept in libmicrohttpd's socket context.
func record(of connection: OpaquePointer) -> ConnectionRecord? {
    mvvm_socket_context(connection).map { Unmanaged<ConnectionRecord>.fromOpaque($0).takeUnretainedValue() }
}

private let completedHandler: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
    if let connection, let record = record(of: connection) {
        // The next request's time starts now.
        record.requestStart.store(MonotonicClock.milliseconds, ordering: .relaxed)
        record.isHandling.store(false, ordering: .relaxed)
    }
    guard let requestContext, let stored = requestContext.pointee else { return }
    guard !isMarker(stored) else {
        requestContext.pointee = nil
        return
    }
    let state = Unmanaged<RequestState>.fromOpaque(stored).takeUnretainedValue()
    if let context {
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        switch state.phase {
        case .handling:
            break
        case .awaiting(let responder, _):
            // A request whose client went away during its passes before parking: the work its
            // handler left to this thread is done all the same (an input is applied).
            LeftWork.runQueued()
            core.abandoned(responder)
        case .parked(let responder):
            // A parked request whose client went away: libmicrohttpd closes it after the resume
            // without calling the access handler again.
            _ = core.resumed(responder)
            core.parkedRequestCompleted()
        case .resumed:
            core.parkedRequestCompleted()
        }
    }
    Unmanaged<RequestState>.fromOpaque(stored).release()
    requestContext.pointee = nil
}
