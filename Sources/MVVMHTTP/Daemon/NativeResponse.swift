internal import CMicroHTTPD
import Foundation
import MVVMSupport

// How the access handler's answers reach libmicrohttpd: as native responses, made once for a
// shared answer and queued on every connection it answers.

/// A libmicrohttpd response prepared once and queued for many requests.
// Safe: libmicrohttpd reference-counts a response under its own lock, and documents queueing
// one response on many connections from many threads; this wrapper never changes it after
// making it, and destroys its own reference once, when the last Swift owner lets go.
final class NativeResponse: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Makes the native form of `response` with the `fixed` headers.
    /// - Throws: ``MicroHTTPDError`` when libmicrohttpd cannot make it.
    init(_ response: HTTPResponse, fixed: FixedResponseHeaders) throws(MicroHTTPDError) {
        pointer = try makeNativeResponse(response, fixed: fixed)
    }

    deinit {
        MHD_destroy_response(pointer)
    }
}

/// Makes the native form of an answer: its body, its headers, then the `fixed` ones (the
/// server's own, sent with every answer).
/// - Throws: ``MicroHTTPDError`` when libmicrohttpd makes no response or refuses a header
///   field (the response made is destroyed).
func makeNativeResponse(_ response: HTTPResponse, fixed: FixedResponseHeaders) throws(MicroHTTPDError) -> OpaquePointer {
    let created = try MicroHTTPDResult.check(
        response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }, "MHD_create_response_from_buffer")
    do {
        try addHeaders(response.headers, to: created, fixed: fixed)
    } catch {
        MHD_destroy_response(created)
        throw error
    }
    return created
}

/// Adds an answer's header fields, then the `fixed` ones, to a native response.
/// - Throws: ``MicroHTTPDError`` when libmicrohttpd refuses one (a name or value it deems
///   invalid, or no memory).
func addHeaders(_ fields: [(name: String, value: String)], to native: OpaquePointer, fixed: FixedResponseHeaders) throws(MicroHTTPDError) {
    try addHeaders(fields, to: native)
    try fixed.withFields { (fields) throws(MicroHTTPDError) in try addHeaders(fields, to: native) }
}

/// Adds header fields to a native response.
private func addHeaders(_ fields: [(name: String, value: String)], to native: OpaquePointer) throws(MicroHTTPDError) {
    for field in fields {
        // withCString, not the implicit conversion: that one copies a small string to the heap.
        let added = field.name.withCString { name in
            field.value.withCString { value in MHD_add_response_header(native, name, value) }
        }
        try MicroHTTPDResult.check(added, "MHD_add_response_header")
    }
}

/// Queues the answer to a request made in HTTP `version` and reports it; the method and URL
/// are read only for a log line.
func queue(
    _ response: HTTPResponse, on connection: OpaquePointer, version: UnsafePointer<CChar>, method: @autoclosure () -> String,
    url: @autoclosure () -> String, core: ServerCore, route: Int = -1
) -> MHD_Result {
    if let stream = response.stream {
        return queueStream(response, stream, on: connection, version: version, method: method(), url: url(), core: core, route: route)
    }
    let created: OpaquePointer
    do {
        if let native = try response.prepared(fixed: core.fixedHeaders) {
            return queue(native, status: response.status, on: connection, method: method(), url: url(), core: core, route: route)
        }
        created = try makeNativeResponse(response, fixed: core.fixedHeaders)
    } catch {
        return MicroHTTPDResult.refused(after: error, logger: core.logger)
    }
    let result = MicroHTTPDResult.logged(
        MHD_queue_response(connection, UInt32(response.status), created), "MHD_queue_response", logger: core.logger, level: .info)
    MHD_destroy_response(created)
    core.answered(method: method(), path: url(), route: route, status: response.status, arrived: arrival(of: connection))
    return result
}

/// Queues a native response prepared once (a shared answer, or a kept one) and reports it.
func queue(
    _ native: NativeResponse, status: Int, on connection: OpaquePointer, method: @autoclosure () -> String, url: @autoclosure () -> String,
    core: ServerCore, route: Int
) -> MHD_Result {
    let result = MicroHTTPDResult.logged(
        MHD_queue_response(connection, UInt32(status), native.pointer), "MHD_queue_response", logger: core.logger, level: .info)
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
    /// - Throws: ``MicroHTTPDError`` when libmicrohttpd cannot make it (a later call tries again).
    func prepared(fixed: FixedResponseHeaders) throws(MicroHTTPDError) -> NativeResponse? {
        guard let shared else { return nil }
        var failure: MicroHTTPDError?
        let native = shared.value(orMake: { () -> NativeResponse? in
            do throws(MicroHTTPDError) {
                return try NativeResponse(self, fixed: fixed)
            } catch {
                failure = error
                return nil
            }
        })
        if let failure { throw failure }
        return native
    }
}

/// The request target for a log line, with bytes that are not UTF-8 repaired.
func loggableURL(_ url: UnsafePointer<CChar>) -> String {
    String(decoding: UnsafeRawBufferPointer(start: url, count: strlen(url)), as: UTF8.self)
}
