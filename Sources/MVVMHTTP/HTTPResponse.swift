import Foundation
import MVVMJSON
import MVVMSupport

/// One HTTP response: a status, header fields and a body of bytes.
///
/// Bodies are `Data`, so that one encoded document can be handed to many responses
/// without being copied or encoded again.
package struct HTTPResponse: Sendable {
    /// The status code. Changing it (as changing the headers or the body) unshares the response.
    package var status: Int { didSet { shared = nil } }
    /// Header fields in the order they are sent.
    package var headers: [(name: String, value: String)] { didSet { shared = nil } }
    /// The body bytes.
    package var body: Data { didSet { shared = nil } }
    /// When set, the runtime prepares this exact response (status, headers and body) once, keeps
    /// it in the slot and sends the prepared form to every request answered with the same slot.
    /// A copy whose status, headers or body is then changed (``adding(header:_:)``) is no longer
    /// that exact response: the change sets this to `nil`, and the copy is sent as it is.
    package var shared: AttachmentSlot?
    /// When set, the body is this stream, sent as it is produced after the header fields
    /// (chunked), and ``body`` is not sent. A streamed response is never shared.
    package var stream: ResponseStream?

    /// Makes a response.
    package init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response around bytes that are already encoded.
    package static func json(_ body: Data, status: Int = 200, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(headers.count + 1)
        fields.append(("Content-Type", "application/json"))
        fields.append(contentsOf: headers)
        return HTTPResponse(status: status, headers: fields, body: body)
    }

    /// This response, prepared once and shared through `slot` (see ``shared``).
    package func sharing(_ slot: AttachmentSlot) -> HTTPResponse {
        var copy = self
        copy.shared = slot
        return copy
    }

    /// The response kept in `slot`, made by `make` the first time and shared from then on
    /// (bytes, headers and the runtime's native form are all prepared once).
    package static func prepared(in slot: AttachmentSlot, _ make: () -> HTTPResponse) -> HTTPResponse {
        slot.value { PreparedResponse(make().sharing(AttachmentSlot())) }?.response ?? make()
    }

    /// A response whose body is `stream` (see ``stream``).
    package static func streaming(_ stream: ResponseStream, status: Int = 200, headers: [(name: String, value: String)]) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers)
        response.stream = stream
        return response
    }

    /// A JSON response that encodes a value (sorted keys, so equal values give equal bytes).
    package static func json(encoding value: some Encodable, status: Int = 200, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        do {
            return json(try JSONCoding.encode(value), status: status, headers: headers)
        } catch {
            return HTTPError.internal("The response could not be encoded.").response
        }
    }

    /// The value of the first header field with this name, looked up case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// This response with one more header field.
    package func adding(header name: String, _ value: String) -> HTTPResponse {
        var copy = self
        copy.headers.append((name, value))
        return copy
    }
}
