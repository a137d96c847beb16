import Foundation
import HTTPTypes

/// A problem the server reported (RFC 9457 problem details), as every 4xx and 5xx answer of
/// the API carries it; thrown by every call of the client that the server refused.
public struct ProblemDetails: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The kind of problem, stable per kind, e.g. `https://mvvmserver.dev/problems/session-gone`.
    public var type: String
    /// The same for every problem of a kind.
    public var title: String
    /// The HTTP status code.
    public var status: Int
    /// What went wrong with this request.
    public var detail: String
    /// The input member, action argument or query parameter at fault, when there is one.
    public var member: String?

    /// Makes problem details.
    public init(type: String, title: String, status: Int, detail: String, member: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.member = member
    }

    /// The problem details in an error answer's body, or, when the body holds none (an answer
    /// that does not come from the API, such as a proxy's), a problem made from the status that
    /// says `detail`.
    static func answered(_ body: Data, status: Int, otherwise detail: String) -> ProblemDetails {
        (try? JSONDecoder().decode(ProblemDetails.self, from: body))
            ?? ProblemDetails(type: "about:blank", title: HTTPResponse.Status(code: status).reasonPhrase, status: status, detail: detail)
    }

    /// The last path segment of ``type``, e.g. `session-gone`: what a caller switches on.
    public var kind: String {
        String(type.split(separator: "/").last ?? Substring(type))
    }

    /// The status, the kind and the detail on one line.
    public var description: String {
        "\(status) \(kind): \(detail)" + (member.map { " (member '\($0)')" } ?? "")
    }
}
