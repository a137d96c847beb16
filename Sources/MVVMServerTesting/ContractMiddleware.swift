import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Checks every answer the client reads against the app's contract (``ContractCheck``) and
/// fails the call with ``ContractViolation`` when one is not what the contract promises.
struct ContractMiddleware: ClientMiddleware {
    let check: ContractCheck

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @concurrent @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        let contentType = response.headerFields[.contentType]
        guard contentType?.contains("json") == true else { return (response, responseBody) }
        var bytes = Data()
        if let responseBody { bytes = try await Data(collecting: responseBody, upTo: .max) }
        let path = request.path ?? "/"
        if let problem = check.problem(
            method: request.method.rawValue, path: path, status: response.status.code, contentType: contentType, body: bytes)
        {
            throw ContractViolation(method: request.method.rawValue, path: path, problem: problem)
        }
        return (response, bytes.isEmpty ? nil : HTTPBody(bytes))
    }
}

/// An answer that is not what the app's contract (`GET /openapi.json`) promises: a member of
/// the wrong type, a member missing or not allowed, or a status the contract does not list.
public struct ContractViolation: Error, CustomStringConvertible {
    /// The request's method.
    public let method: String
    /// The request's path.
    public let path: String
    /// What is wrong, with the path of the member at fault (`/output/count: is string, not integer`).
    public let problem: String

    /// The request and what is wrong with its answer, in a sentence.
    public var description: String {
        "The answer to \(method) \(path) is not what the app's contract promises: \(problem)"
    }
}
