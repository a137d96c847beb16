import Foundation
import MVVMJSON

/// An error that leaves the server as an RFC 9457 problem details answer.
///
/// Each kind of error has a stable `type` URI; new kinds are added as static members.
/// This is the one place where error bodies are produced.
package struct HTTPError: Error, Sendable, Equatable {
    /// The kind of problem: its slug, status and title.
    package struct Kind: Sendable, Equatable {
        /// The last part of the `type` URI, e.g. `session-not-found`.
        package let slug: String
        /// The HTTP status code.
        package let status: Int
        /// The title shared by every problem of this kind.
        package let title: String

        /// Declares a kind of problem.
        package init(slug: String, status: Int, title: String) {
            self.slug = slug
            self.status = status
            self.title = title
        }
    }

    /// The base of every problem `type` URI.
    package static let typeBase = "https://mvvmserver.dev/problems/"

    /// The kind of problem.
    package let kind: Kind
    /// What went wrong with this request.
    package let detail: String
    /// The input or argument member that was rejected, when there is one.
    package let member: String?
    /// Extra header fields (e.g. `Allow`, `Retry-After`).
    package let headers: [Header]

    /// One extra header field.
    package struct Header: Sendable, Equatable {
        /// The field name.
        package let name: String
        /// The field value.
        package let value: String

        /// A field with a name and a value.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Makes an error of a kind.
    package init(_ kind: Kind, detail: String, member: String? = nil, headers: [Header] = []) {
        self.kind = kind
        self.detail = detail
        self.member = member
        self.headers = headers
    }

    /// The problem details document.
    package var problem: ProblemDetails {
        ProblemDetails(type: Self.typeBase + kind.slug, title: kind.title, status: kind.status, detail: detail, member: member)
    }

    /// The answer that carries this error.
    package var response: HTTPResponse {
        let body = (try? JSONCoding.encode(problem)) ?? Data(#"{"type":"about:blank","title":"Error","status":500,"detail":"unencodable"}"#.utf8)
        var fields: [(name: String, value: String)] = [("Content-Type", "application/problem+json"), ("Cache-Control", "no-store")]
        fields += headers.map { ($0.name, $0.value) }
        return HTTPResponse(status: kind.status, headers: fields, body: body)
    }
}

extension HTTPError.Kind {
    /// 400: the request could not be understood.
    package static let badRequest = Self(slug: "bad-request", status: 400, title: "Bad request")
    /// 400: the body is not well-formed JSON.
    package static let malformedJSON = Self(slug: "malformed-json", status: 400, title: "Malformed JSON")
    /// 400: a query parameter is not valid.
    package static let invalidParameter = Self(slug: "invalid-parameter", status: 400, title: "Invalid query parameter")
    /// 403: the request comes from a page of an origin the server does not trust.
    package static let originNotAllowed = Self(slug: "origin-not-allowed", status: 403, title: "Origin not allowed")
    /// 404: no route serves this path.
    package static let notFound = Self(slug: "not-found", status: 404, title: "Not found")
    /// 405: the path exists but not with this method.
    package static let methodNotAllowed = Self(slug: "method-not-allowed", status: 405, title: "Method not allowed")
    /// 413: the body is larger than the server accepts.
    package static let payloadTooLarge = Self(slug: "payload-too-large", status: 413, title: "Payload too large")
    /// 414: the query does not fit in a connection's memory.
    package static let uriTooLong = Self(slug: "uri-too-long", status: 414, title: "URI too long")
    /// 415: the body is not JSON.
    package static let unsupportedMediaType = Self(slug: "unsupported-media-type", status: 415, title: "Unsupported media type")
    /// 421: the request names a host the server does not answer to.
    package static let hostNotAllowed = Self(slug: "host-not-allowed", status: 421, title: "Host not allowed")
    /// 500: the server failed.
    package static let internalError = Self(slug: "internal-error", status: 500, title: "Internal server error")
    /// 501: the method is not one the server knows.
    package static let notImplemented = Self(slug: "method-not-implemented", status: 501, title: "Method not implemented")
    /// 503: the server is stopping, or a capacity limit was reached.
    package static let unavailable = Self(slug: "service-unavailable", status: 503, title: "Service unavailable")
    /// 504: a parked request reached its deadline before it could be answered.
    package static let deadlineExceeded = Self(slug: "deadline-exceeded", status: 504, title: "Deadline exceeded")
}

extension HTTPError {
    /// A 500 whose detail never carries internal paths or stack traces.
    package static func `internal`(_ detail: String) -> HTTPError {
        HTTPError(.internalError, detail: detail)
    }

    /// A 503 with a Retry-After header.
    package static func unavailable(_ detail: String, retryAfterSeconds: Int = 1) -> HTTPError {
        HTTPError(.unavailable, detail: detail, headers: [Header(name: "Retry-After", value: String(retryAfterSeconds))])
    }
}
