internal import CMicroHTTPD
import Foundation

// What the access handler keeps for a request in libmicrohttpd's request context: a marker
// while the request needs nothing more, or a state object once it does.

// Exclusivity of its fields is not checked at run time (@exclusivity(unchecked)): a request's
// state is touched only by libmicrohttpd's callbacks for that request, on its polling thread,
// one call at a time, with plain reads, writes and appends.
/// What the runtime keeps for one request, from its first callback to its completion.
final class RequestState {
    @exclusivity(unchecked) var body = Data()
    @exclusivity(unchecked) var bodyTooLarge = false
    /// The allowed origin of a cross-origin request, whose answer gets CORS fields; `nil` for
    /// the rest.
    @exclusivity(unchecked) var crossOrigin: String?
    /// Where the request stands once its handler has returned.
    @exclusivity(unchecked) var phase = Phase.handling

    /// Where a request stands once its handler has returned without an answer.
    enum Phase {
        /// Not handed to its handler yet, or answered: nothing waits on it.
        case handling
        /// Not answered by its handler, not parked yet: given a few more passes of the polling
        /// loop (see the access handler), counted here.
        case awaiting(Responder, passes: Int)
        /// Parked: its connection is suspended until the responder is answered.
        case parked(Responder)
        /// Parked, then resumed: its answer is being sent.
        case resumed(Responder)
    }

}

/// The request context of a request whose headers have arrived and that needs no state object
/// yet: most requests (no body, answered at once, no timed log line) never get one.
var headersArrived: UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(bitPattern: 1)!
}

/// The request context that the shim's query check leaves, before the first call, for a
/// request whose query could not fit in the connection's memory (its query was cut off).
var queryTooLarge: UnsafeMutableRawPointer {
    mvvm_query_too_large_marker()!
}

/// The request context of such a request once its headers have arrived.
var queryTooLargeHeadersArrived: UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(bitPattern: 3)!
}

/// Whether a request context holds one of the markers above rather than a ``RequestState``.
func isMarker(_ stored: UnsafeMutableRawPointer) -> Bool {
    UInt(bitPattern: stored) <= 3
}

/// The request's state object, made and kept in its request context on first need.
func requestState(_ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> RequestState {
    if let stored = requestContext.pointee, !isMarker(stored) {
        return Unmanaged<RequestState>.fromOpaque(stored).takeUnretainedValue()
    }
    let state = RequestState()
    requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
    return state
}
