internal import CMicroHTTPD
import Foundation
import MVVMSupport

// The access handler's work for one request, called by the daemon's C callback: reading the
// request, handing it to the server's handler, and sending its answer at once, after a few
// passes of the polling loop, or once its parked connection is resumed.

/// One call of the access handler (see libmicrohttpd's MHD_AccessHandlerCallback).
func handleAccess(
    core: ServerCore, connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>,
    uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
) -> MHD_Result {
    // First call: only the headers have arrived. Answering now would cost keep-alive.
    guard let stored = requestContext.pointee else {
        markArrival(of: connection)
        requestContext.pointee = headersArrived
        return .YES
    }
    if isMarker(stored), stored != headersArrived {
        return refuseLargeQuery(
            connection: connection, version: version, url: url, method: method, uploadSize: uploadSize, requestContext: requestContext, core: core)
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
    // Only local clients get in: a foreign Host or Origin is refused, a preflight from an
    // allowed origin answered here, and a cross-origin request's answer gets the CORS fields.
    var crossOrigin: String?
    if case .success(let clients) = core.clients {
        switch clients.verdict(on: connection, method: method) {
        case .sameOrigin:
            break
        case .crossOrigin(let origin):
            crossOrigin = origin
            requestState(requestContext).crossOrigin = origin
        case .preflight(let answer):
            record(of: connection)?.isHandling.store(true, ordering: .relaxed)
            return queue(answer, on: connection, version: version, method: "OPTIONS", url: loggableURL(url), core: core)
        case .refused(let error):
            record(of: connection)?.isHandling.store(true, ordering: .relaxed)
            return queue(error.response, on: connection, version: version, method: methodName(method), url: loggableURL(url), core: core)
        }
    }
    // A GET that an answer kept by this thread still answers is sent it at once (not to another
    // origin's page: its answer needs CORS fields of its own).
    let reusable = crossOrigin == nil ? ReusableRequest(connection: connection, method: method, url: url, state: state, check: core.reuseCheck) : nil
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
        return queue(
            HTTPError(.badRequest, detail: "The path is not valid UTF-8.").response, on: connection, version: version, method: methodText,
            url: urlText, core: core)
    }
    guard let query = connectionValues(of: connection, kind: .GET_ARGUMENT_KIND, decodeQuery: true) else {
        return queue(
            HTTPError(.badRequest, detail: "The query string is malformed or not valid UTF-8.").response, on: connection, version: version,
            method: methodText, url: urlText, core: core)
    }
    // A name given twice keeps its last value.
    let arguments = query.isEmpty ? [:] : Dictionary(query, uniquingKeysWith: { _, last in last })
    guard let fields = connectionValues(of: connection, kind: .HEADER_KIND, decodeQuery: false, kept: core.headerFieldsRead) else {
        return queue(
            HTTPError(.badRequest, detail: "A header field the server reads (If-None-Match, Last-Event-ID, Accept, …) is not valid UTF-8.").response,
            on: connection, version: version, method: methodText, url: urlText, core: core)
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
        return queue(
            answer.crossOrigin(crossOrigin), on: connection, version: version, method: methodText, url: urlText, core: core, route: responder.route)
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
private func followUp(
    _ state: RequestState, connection: OpaquePointer, version: UnsafePointer<CChar>, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>,
    core: ServerCore
) -> MHD_Result? {
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
    return queue(
        answer.crossOrigin(state.crossOrigin), on: connection, version: version, method: methodName(method), url: loggableURL(url), core: core,
        route: responder.route)
}

/// Parks a request whose handler has not answered: suspends its connection until the answer
/// comes. Returns the answer instead when it came meanwhile.
private func park(_ responder: Responder, state: RequestState, connection: OpaquePointer, core: ServerCore) -> HTTPResponse? {
    let connectionHandle = MicroHTTPDaemon.Handle(pointer: connection)
    return core.park(
        responder,
        suspend: {
            state.phase = .parked(responder)
            MHD_suspend_connection(connection)
        },
        resume: {
            MHD_resume_connection(connectionHandle.pointer)
        })
}

/// A request whose query the shim cut off: waits for the headers (answering on the first call
/// would cost keep-alive), drops any body, then answers 414.
private func refuseLargeQuery(
    connection: OpaquePointer, version: UnsafePointer<CChar>, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
    uploadSize: UnsafeMutablePointer<Int>, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>, core: ServerCore
) -> MHD_Result {
    if requestContext.pointee == queryTooLarge {
        markArrival(of: connection)
        requestContext.pointee = queryTooLargeHeadersArrived
        return .YES
    }
    if uploadSize.pointee > 0 {
        uploadSize.pointee = 0
        return .YES
    }
    let detail =
        "The query has too many arguments, or is too long, for a connection's memory (\(core.configuration.connectionMemoryLimitBytes) bytes)."
    return queue(
        HTTPError(.uriTooLong, detail: detail).response, on: connection, version: version, method: methodName(method), url: loggableURL(url),
        core: core)
}

/// Notes that the connection's current request has arrived (its header fields): what its
/// answer's duration counts from.
private func markArrival(of connection: OpaquePointer) {
    record(of: connection)?.requestArrived.store(MonotonicClock.nanoseconds, ordering: .relaxed)
}
