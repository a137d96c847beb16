import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns every answer with a 4xx or 5xx status into a thrown ``ProblemDetails``, before the
/// generated operations read it: its body when it is problem details, a problem made from the
/// status otherwise (an answer that does not come from the API, such as a proxy's).
struct ProblemMiddleware: ClientMiddleware {
    /// The most bytes of an error body read.
    static let maxBodyBytes = 64 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @concurrent @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        var bytes = Data()
        if let responseBody { bytes = try await Data(collecting: responseBody, upTo: Self.maxBodyBytes) }
        throw ProblemDetails.answered(
            bytes, status: response.status.code, otherwise: "The server answered \(response.status.code) without problem details to \(operationID).")
    }
}

extension Error {
    /// The problem details the server answered, when the generated client wrapped them in its
    /// `ClientError`; the error itself otherwise.
    var unwrappingClientError: any Error {
        if let clientError = self as? ClientError { return clientError.underlyingError }
        return self
    }
}
