import Foundation
import MVVMJSON

/// The parsers that read what clients send, reachable from outside the module so that fuzzers
/// and tools can drive them directly: path and query decoding, long-poll parameters, and
/// strict JSON. Each returns `nil` (or throws ``HTTPError``) for bad input; none may crash.
package enum RequestParsers {
    /// A path split into percent-decoded segments; `nil` when it is malformed.
    package static func pathSegments(_ path: String) -> [String]? {
        HTTPRequest(method: "GET", path: path).pathSegments
    }

    /// A raw query string (`a=1&b=x%20y`) decoded into pairs; `nil` when it is malformed.
    package static func query(_ raw: String) -> [String: String]? {
        PercentDecoding.decodeQuery(raw[...])
    }

    /// The `since` and `wait` of a long-poll, with `wait` cut to `maxWait` seconds.
    /// - Throws: ``HTTPError`` naming the parameter that is malformed.
    package static func longPoll(_ query: [String: String], maxWait: Double) throws(HTTPError) -> (since: UInt64?, wait: Duration?) {
        let parameters = try PollParameters(query, maxWait: maxWait)
        return (parameters.since, parameters.wait)
    }

    /// A JSON document, parsed strictly; `nil` when it is malformed or nests too deeply.
    package static func json(_ bytes: [UInt8]) -> JSONValue? {
        StrictJSON.parse(Data(bytes))
    }
}
