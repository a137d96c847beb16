internal import CMicroHTTPD
import Foundation

// How a ``ResponseStream`` reaches libmicrohttpd: a response of unknown size (sent chunked)
// whose content reader suspends the connection when the stream has nothing to send, and a
// free callback that lets go of the stream when libmicrohttpd is done with it.

/// libmicrohttpd's MHD_CONTENT_READER_END_OF_STREAM and MHD_CONTENT_READER_END_WITH_ERROR.
private let endOfStream = -1
private let endWithError = -2

/// The response's own buffer: libmicrohttpd allocates it with every streamed response, and
/// reads into it only for a client that cannot take chunks (HTTP/1.0); a chunked stream is read
/// straight into the connection's write buffer.
private let unchunkedReadBytes = 256

/// Queues a streamed answer on a connection and reports it.
func queueStream(_ response: HTTPResponse, _ stream: ResponseStream, on connection: OpaquePointer, method: @autoclosure () -> String, url: @autoclosure () -> String, core: ServerCore, route: Int) -> MHD_Result {
    let retained = Unmanaged.passRetained(stream)
    guard let native = MHD_create_response_from_callback(UInt64.max, unchunkedReadBytes, streamReader, retained.toOpaque(), streamFreed) else {
        retained.release()
        return .NO
    }
    addHeaders(response.headers, to: native)
    core.fixedHeaders.withFields { addHeaders($0, to: native) }
    let handle = MicroHTTPDaemon.Handle(pointer: connection)
    let socket = record(of: connection)?.socket ?? -1
    let id = ObjectIdentifier(stream)
    core.streams.opened(stream) { [core] in
        ResponseStream.Link(
            suspend: { MHD_suspend_connection(handle.pointer) },
            resume: { MHD_resume_connection(handle.pointer) },
            isClientThere: { isClientThere(socket) },
            countSuspended: { change in core.streams.suspended.add(change, ordering: .relaxed) },
            released: { core.streams.closed(id) })
    }
    let result = MHD_queue_response(connection, UInt32(response.status), native)
    MHD_destroy_response(native)
    core.answered(method: method(), path: url(), route: route, status: response.status, arrived: arrival(of: connection))
    return result
}

/// Whether the peer of a socket is still there: it has not closed its side nor reset the
/// connection. (A client that only stopped reading is still there; the connection timeout
/// cuts it off.)
private func isClientThere(_ socket: Int32) -> Bool {
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
