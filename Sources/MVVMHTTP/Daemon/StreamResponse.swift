internal import CMicroHTTPD
import Foundation

// How a ``ResponseStream`` reaches libmicrohttpd: a response of unknown size (sent chunked)
// whose content reader suspends the connection when the stream has nothing to send, and a
// free callback that lets go of the stream when libmicrohttpd is done with it.

/// libmicrohttpd's MHD_CONTENT_READER_END_OF_STREAM and MHD_CONTENT_READER_END_WITH_ERROR.
private let endOfStream = -1
private let endWithError = -2

/// The response's own buffer. libmicrohttpd allocates it with every streamed response, and reads
/// into it only for a client that cannot take chunks: a chunked body (HTTP/1.1) is read straight
/// into the connection's write buffer.
private let unchunkedReadBytes = 1024
private let chunkedReadBytes = 8

/// Whether the request was made in HTTP/1.1, the version libmicrohttpd sends a body of unknown
/// length to in chunks.
private func isHTTP11(_ version: UnsafePointer<CChar>) -> Bool {
    strcmp(version, MHD_HTTP_VERSION_1_1) == 0
}

/// Queues a streamed answer on a connection and reports it.
func queueStream(
    _ response: HTTPResponse, _ stream: ResponseStream, on connection: OpaquePointer, version: UnsafePointer<CChar>,
    method: @autoclosure () -> String, url: @autoclosure () -> String, core: ServerCore, route: Int
) -> MHD_Result {
    let retained = Unmanaged.passRetained(stream)
    let readBytes = isHTTP11(version) ? chunkedReadBytes : unchunkedReadBytes
    let native: OpaquePointer
    do {
        native = try MicroHTTPDResult.check(
            MHD_create_response_from_callback(UInt64.max, readBytes, streamReader, retained.toOpaque(), streamFreed),
            "MHD_create_response_from_callback")
    } catch {
        retained.release()
        return MicroHTTPDResult.refused(after: error, logger: core.logger)
    }
    do {
        try addHeaders(response.headers, to: native, fixed: core.fixedHeaders)
    } catch {
        // Destroying the response frees the stream through its free callback.
        MHD_destroy_response(native)
        return MicroHTTPDResult.refused(after: error, logger: core.logger)
    }
    let link = ConnectionLink(
        connection: MicroHTTPDaemon.Handle(pointer: connection), socket: record(of: connection)?.socket ?? -1, registry: core.streams)
    core.streams.opened(stream, link: link)
    let result = MicroHTTPDResult.logged(
        MHD_queue_response(connection, UInt32(response.status), native), "MHD_queue_response", logger: core.logger, level: .info)
    MHD_destroy_response(native)
    core.answered(method: method(), path: url(), route: route, status: response.status, arrived: arrival(of: connection))
    return result
}

/// A stream's link to the libmicrohttpd connection it is queued on.
private struct ConnectionLink: ResponseStream.Link {
    let connection: MicroHTTPDaemon.Handle
    let socket: Int32
    let registry: StreamRegistry

    func suspend() {
        MHD_suspend_connection(connection.pointer)
    }

    func resume() {
        MHD_resume_connection(connection.pointer)
    }

    func isClientThere() -> Bool {
        isClientThereOnSocket(socket)
    }

    func countSuspended(_ change: Int) {
        registry.suspended.add(change, ordering: .relaxed)
    }

    func released(_ stream: ResponseStream) {
        registry.closed(ObjectIdentifier(stream))
    }
}

/// Whether the peer of a socket is still there: it has not closed its side nor reset the
/// connection. (A client that only stopped reading is still there; the connection timeout
/// cuts it off.)
private func isClientThereOnSocket(_ socket: Int32) -> Bool {
    guard socket >= 0 else { return true }
    var byte: UInt8 = 0
    let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
    if count > 0 { return true }
    if count == 0 { return false }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
}

private let streamReader: MHD_ContentReaderCallback = { context, _, buffer, capacity in
    guard let context, let buffer else { return endWithError }
    let stream = Unmanaged<ResponseStream>.fromOpaque(context).takeUnretainedValue()
    let target = UnsafeMutableRawBufferPointer(start: buffer, count: capacity)
    // Upstream's pattern: with nothing to send, the reader suspends the connection and returns
    // 0; the stream's wake resumes it, and libmicrohttpd calls the reader again.
    switch stream.fill(target) {
    case .copied(let count): return count
    case .suspended: return 0
    case .ended: return endOfStream
    case .aborted: return endWithError
    }
}

private let streamFreed: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let stream = Unmanaged<ResponseStream>.fromOpaque(context)
    stream.takeUnretainedValue().finish()
    stream.release()
}
