internal import CMicroHTTPD
import Logging

/// A libmicrohttpd call that failed: the call's name, for a log line or an error.
struct MicroHTTPDError: Error, CustomStringConvertible, Sendable {
    /// The C function that failed.
    let call: StaticString

    /// What failed, in one sentence.
    var description: String {
        "libmicrohttpd's \(call) failed"
    }
}

/// The one place where the results of libmicrohttpd's C calls are read: a call that failed
/// (`MHD_NO`, or no object where one was made) becomes a thrown ``MicroHTTPDError``, or a log
/// line where nothing can be thrown (inside a callback of libmicrohttpd's, whose result goes
/// back to it).
enum MicroHTTPDResult {
    /// Returns when `result` is `MHD_YES`; otherwise throws the failure of `call`.
    static func check(_ result: MHD_Result, _ call: StaticString) throws(MicroHTTPDError) {
        guard result == .YES else { throw MicroHTTPDError(call: call) }
    }

    /// The object a making call returned; throws the failure of `call` when it returned none.
    static func check(_ made: OpaquePointer?, _ call: StaticString) throws(MicroHTTPDError) -> OpaquePointer {
        guard let made else { throw MicroHTTPDError(call: call) }
        return made
    }

    /// Returns `result`, to be handed back to libmicrohttpd, after logging it to `logger` at
    /// `level` when it is `MHD_NO`.
    static func logged(_ result: MHD_Result, _ call: StaticString, logger: Logger, level: Logger.Level = .warning) -> MHD_Result {
        if result != .YES {
            logger.log(level: level, "A call to libmicrohttpd failed.", metadata: ["call": "\(call)"])
        }
        return result
    }

    /// Logs `error` (a failed call's) to `logger`, then returns `MHD_NO`, the answer that tells
    /// libmicrohttpd to close the connection.
    static func refused(after error: MicroHTTPDError, logger: Logger) -> MHD_Result {
        logger.warning("A call to libmicrohttpd failed; the connection is closed.", metadata: ["call": "\(error.call)"])
        return .NO
    }
}

extension ServerCore {
    /// Logs a failed call of libmicrohttpd's whose failure has a fallback (the answer is still
    /// sent, another way).
    func logFailure(_ error: MicroHTTPDError) {
        logger.warning("A call to libmicrohttpd failed; the answer was sent another way.", metadata: ["call": "\(error.call)"])
    }
}
