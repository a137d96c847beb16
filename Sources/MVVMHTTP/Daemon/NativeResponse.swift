internal import CMicroHTTPD
import MVVMSupport
import Foundation

// How the access handler's answers reach libmicrohttpd: as native responses, made once for a
// shared answer and queued on every connection it answers.

/// A libmicrohttpd response prepared once and queued for many requests.
// Safe: libmicrohttpd reference-counts a response under its own lock, and documents queueing
// one response on many connections from many threads; this wrapper never changes it after
// making it, and destroys its own reference once, when the last Swift owner lets go.
final class NativeResponse: @unchecked Sendable {
    let pointer: OpaquePointer

    init?(_ response: HTTPResponse, fixed: FixedResponseHeaders) {
        guard let pointer = makeNativeResponse(response, fixed: fixed) else { return nil }
        self.pointer = pointer
    }

    deinit {
        MHD_destroy_response(pointer)
    }
}

/// Makes the native form of an answer: its body, its headers, then the `fixed` ones (the
/// server's own, sent with every answer).
func makeNativeResponse(_ response: HTTPResponse, fixed: FixedResponseHeaders) -> OpaquePointer? {
    let created = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let created else { return nil }
    addHeaders(response.headers, to: created)
    fixed.withFields { addHeaders($0, to: created) }
    return created
}

/// Adds header fields to a native response.
func addHeaders(_ fields: [(name: String, value: String)], to native: OpaquePointer) {
    for field in fields {
        // withCString, not the implicit conversion: that one copies a small string to the heap.
        field.name.withCString { name in
            field.value.withCString { value in _ = MHD_add_response_header(native, name, value) }
        }
    }
}

/// Queues the answer to a request made in HTTP `version` and reports it; the method and URL
/// are read only for a log line.
func queue(_ response: HTTPResponse, on connection: OpaquePointer, version: UnsafePointer<CChar>, method: @autoclosure () -> String, url: @autoclosure () -> String, core: ServerCore, route: Int = -1) -> MHD_Result {
    if let stream = response.stream {
        return queueStream(response, stream, on: connection, version: version, method: method(), url: url(), core: core, route: route)
    }
    if let native = response.prepared(fixed: core.fixedHeaders) {
        return queue(native, status: response.status, on: connection, method: method(), url: url(), core: core, route: route)
    }
    guard let created = makeNativeResponse(response, fixed: core.fixedHeaders) else { return .NO }
    let result = MHD_queue_response(connection, UInt32(response.status), created)
    MHD_destroy_response(created)
    core.answered(method: method(), path: url(), route: route, status: response.status, arrived: arrival(of: connection))
    return result
}

/// Queues a native response prepared once (a shared answer, or a kept one) and reports it.
func queue(_ native: NativeResponse, status: Int, on connection: OpaquePointer, method: @autoclosure () -> String, url: @autoclosure () -> String, core: ServerCore, route: Int) -> MHD_Result {
    let result = MHD_queue_response(connection, UInt32(status), native.pointer)
    core.answered(method: method(), path: url(), route: route, status: status, arrived: arrival(of: connection))
    return result
}

/// When the connection's current request arrived; now when it has no record.
func arrival(of connection: OpaquePointer) -> UInt64 {
    record(of: connection)?.requestArrived.load(ordering: .relaxed) ?? MonotonicClock.nanoseconds
}

extension HTTPResponse {
    /// The native form of a shared answer, with the server's `fixed` headers, made once and
    /// kept in its slot; `nil` for an answer that is not shared.
    func prepared(fixed: FixedResponseHeaders) -> NativeResponse? {
        shared?.value(orMake: { NativeResponse(self, fixed: fixed) })
    }
}

/// The request target for a log line, with bytes that are not UTF-8 repaired.
func loggableURL(_ url: UnsafePointer<CChar>) -> String {
    String(decoding: UnsafeRawBufferPointer(start: url, count: strlen(url)), as: UTF8.self)
}
