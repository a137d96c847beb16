internal import CMicroHTTPD
import Foundation
import MVVMSupport

/// The only part of the framework that touches libmicrohttpd's C API.
///
/// The daemon runs an internal polling thread pool on epoll with suspend/resume allowed.
/// Callbacks are file-private C functions that find their Swift owner through `Unmanaged`:
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
        handleAccess(core: core, connection: connection, url: url, method: method, version: version, uploadData: uploadData, uploadSize: uploadSize, requestContext: requestContext)
    }
}

/// One call of the access handler (see libmicrohttpd's MHD_AccessHandlerCallback).
private func handleAccess(core: ServerCore, connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>, uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
    // First call: only the headers have arrived. Answering now would cost keep-alive.
    guard let stored = requestContext.pointee else {
        markArrival(of: connection)
        requestContext.pointee = headersArrived
        return .YES
    }
    if isMarker(stored), stored != headersArrived {
        return refuseLargeQuery(connection: connection, version: version, url: url, method: method, uploadSize: uploadSize, requestContext: requestContext, core: core)
    }
    let state = stored == headersArrived ? nil : Unmanaged<RequestState>.fromOpaque(stored).takeUnretainedValue()

    // A request whose handler returned without an answer.
    if let state, let result = followUp(state, connection: connection, version: version, method: method, url: url, core: core) {
        return result
    }

    // A chunk of the body. Past the cap the buffer is freed and the rest is read and dropped,
    // so that the 413 reaches the client instead of being lost to a reset.
    if uploadSize.pointee > 0 {
        let state = requestState(requestContext)
        let count = uploadSize.pointee
        uploadSize.pointee = 0
        if state.bodyTooLarge { return .YES }
        if state.body.count + count > core.configuration.maxBodyBytes {
            state.bodyTooLarge = true
            state.body = Data()
        } else if let uploadData {
            state.body.append(UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: count)
        }
        return .YES
    }
    // A GET that an answer kept by this thread still answers is sent it at once.
    let reusable = ReusableRequest(connection: connection, method: method, url: url, state: state, check: core.reuseCheck)
    if let reusable, let kept = ReusedAnswers.current.answer(for: reusable.target, fixed: core.fixedHeaders, failed: { core.logFailure($0) }) {
        record(of: connection)?.isHandling.store(true, ordering: .relaxed)
        return queue(kept.response, status: kept.status, on: connection, method: "GET", url: loggableURL(url), core: core, route: kept.route)
    }
    let methodText = methodName(method)
    // The path as sent when it is valid UTF-8 (nil otherwise); logs get a repaired copy.
    let validPath = String(validatingCString: url)
    let urlText = validPath ?? loggableURL(url)
    if state?.bodyTooLarge == true {
        let error = HTTPError(.payloadTooLarge, detail: "The body is larger than \(core.configuration.maxBodyBytes) bytes.")
        return queue(error.response, on: connection, version: version, method: methodText, url: urlText, core: core)
    }

    // The request is complete: from here its time is the handler's, not the client's.
    record(of: connection)?.isHandling.store(true, ordering: .relaxed)
    guard let utf8Path = validPath else {
        return queue(HTTPError(.badRequest, detail: "The path is not valid UTF-8.").response, on: connection, version: version, method: methodText, url: urlText, core: core)
    }
    guard let query = connectionValues(of: connection, kind: .GET_ARGUMENT_KIND, decodeQuery: true) else {
        return queue(HTTPError(.badRequest, detail: "The query string is malformed or not valid UTF-8.").response, on: connection, version: version, method: methodText, url: urlText, core: core)
    }
    // A name given twice keeps its last value.
    let arguments = query.isEmpty ? [:] : Dictionary(query, uniquingKeysWith: { _, last in last })
    guard let fields = connectionValues(of: connection, kind: .HEADER_KIND, decodeQuery: false, kept: core.headerFieldsRead) else {
        return queue(HTTPError(.badRequest, detail: "A header field the server reads (If-None-Match, Last-Event-ID, Accept, …) is not valid UTF-8.").response, on: connection, version: version, method: methodText, url: urlText, core: core)
    }
    let body = state?.body ?? Data()
    state?.body = Data()

    // Made in the call, so that it is handed over, not copied. The handler may leave work to
    // this thread (run when it comes back for the answer, on its next pass).
    let responder = LeftWork.accepting { thread in
        core.dispatch(HTTPRequest(method: methodText, path: utf8Path, query: arguments, fields: fields, body: body), on: thread)
    }
    if let (answer, reuse) = responder.takeReusable() {
        // A handler that answered and also left work: this request gets no next call to run it.
        LeftWork.runQueued()
        if let reusable, let reuse {
            do {
                if let native = try answer.prepared(fixed: core.fixedHeaders) {
                    ReusedAnswers.current.keep(answer, as: native, route: responder.route, for: reusable.target, while: reuse)
                }
            } catch {
                return MicroHTTPDResult.refused(after: error, logger: core.logger)
            }
        }
        return queue(answer, on: connection, version: version, method: methodText, url: urlText, core: core, route: responder.route)
    }
    // Work left to this thread is done on its next pass, and work handed to another thread is
    // mostly done within microseconds: the request is parked only when still unanswered after
    // a few more passes of the polling loop (libmicrohttpd calls the handler again on its next
    // pass when no answer is queued). Answered by then, it costs no suspend and resume of its
    // connection (two epoll_ctl, an eventfd wake-up and one more read).
    requestState(requestContext).phase = .awaiting(responder, passes: 0)
    return .YES
}

/// The next call for a request whose handler returned without an answer: sends the answer once
/// it has come (after a pass of the polling loop, or after its parked connection was resumed);
/// until then the request gets a few more passes, then it is parked. `nil` when the request is
/// not waiting for its handler.
private func followUp(_ state: RequestState, connection: OpaquePointer, version: UnsafePointer<CChar>, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>, core: ServerCore) -> MHD_Result? {
    let responder: Responder
    let answer: HTTPResponse
    switch state.phase {
    case .handling, .resumed:
        return nil
    case .parked(let parked):
        state.phase = .resumed(parked)
        (responder, answer) = (parked, core.resumed(parked))
    case .awaiting(let awaited, let passes):
        // The work handlers left to this thread on its last pass (this request's among them).
        LeftWork.runQueued()
        if let taken = awaited.take() {
            state.phase = .handling
            (responder, answer) = (awaited, taken)
        } else if passes + 1 < MicroHTTPDaemon.passesBeforeParking {
            state.phase = .awaiting(awaited, passes: passes + 1)
            return .YES
        } else {
            state.phase = .handling
            guard let taken = park(awaited, state: state, connection: connection, core: core) else { return .YES }
            (responder, answer) = (awaited, taken)
        }
    }
    return queue(answer, on: connection, version: version, method: methodName(method), url: loggableURL(url), core: core, route: responder.route)
}

/// Parks a request whose handler has not answered: suspends its connection until the answer
/// comes. Returns the answer instead when it came meanwhile.
private func park(_ responder: Responder, state: RequestState, connection: OpaquePointer, core: ServerCore) -> HTTPResponse? {
    let connectionHandle = MicroHTTPDaemon.Handle(pointer: connection)
    return core.park(responder, suspend: {
        state.phase = .parked(responder)
        MHD_suspend_connection(connection)
    }, resume: {
        MHD_resume_connection(connectionHandle.pointer)
    })
}

/// A request whose query the shim cut off: waits for the headers (answering on the first call
/// would cost keep-alive), drops any body, then answers 414.
private func refuseLargeQuery(connection: OpaquePointer, version: UnsafePointer<CChar>, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, uploadSize: UnsafeMutablePointer<Int>, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>, core: ServerCore) -> MHD_Result {
    if requestContext.pointee == queryTooLarge {
        markArrival(of: connection)
        requestContext.pointee = queryTooLargeHeadersArrived
        return .YES
    }
    if uploadSize.pointee > 0 {
        uploadSize.pointee = 0
        return .YES
    }
    let detail = "The query has too many arguments, or is too long, for a connection's memory (\(core.configuration.connectionMemoryLimitBytes) bytes)."
    return queue(HTTPError(.uriTooLong, detail: detail).response, on: connection, version: version, method: methodName(method), url: loggableURL(url), core: core)
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

/// Notes that the connection's current request has arrived (its header fields): what its
/// answer's duration counts from.
private func markArrival(of connection: OpaquePointer) {
    record(of: connection)?.requestArrived.store(MonotonicClock.nanoseconds, ordering: .relaxed)
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
