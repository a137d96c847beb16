import Foundation

/// An RFC 9457 problem details document, the body of every 4xx and 5xx answer.
package struct ProblemDetails: Codable, Sendable, Equatable {
    /// A URI naming the kind of problem; stable for each kind.
    package var type: String
    /// A short summary of the kind of problem.
    package var title: String
    /// The HTTP status code.
    package var status: Int
    /// What went wrong with this request, for a human reader.
    package var detail: String
    /// The member of the input or arguments that was rejected, when there is one.
    package var member: String?

    /// Makes a problem details document.
    package init(type: String, title: String, status: Int, detail: String, member: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.member = member
    }
}
