/// A response made once for a published document and handed to every request that reads
/// that version of it (see ``HTTPResponse/prepared(in:_:)``).
final class PreparedResponse: Sendable {
    let response: HTTPResponse

    init(_ response: HTTPResponse) {
        self.response = response
    }
}
