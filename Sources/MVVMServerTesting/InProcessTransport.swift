import Foundation
import HTTPTypes
import MVVMHTTP
import MVVMServer
import OpenAPIRuntime

/// A client transport that hands each request to an application's router in the same process:
/// no socket, no HTTP parsing; the answer is the one the server would send.
struct InProcessTransport: ClientTransport {
    /// The base URL of the client: only its path matters, and it has none.
    static let serverURL = URL(string: "http://in-process")!

    let router: InProcessRouter

    func send(_ request: HTTPTypes.HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPTypes.HTTPResponse, HTTPBody?
    ) {
        let target = request.path ?? "/"
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: String] = [:]
        if parts.count == 2, let items = URLComponents(string: "http://in-process/?" + parts[1])?.queryItems {
            for item in items { query[item.name] = item.value ?? "" }
        }
        var headers: [String: String] = [:]
        for field in request.headerFields { headers[field.name.canonicalName] = field.value }
        var bytes = Data()
        if let body { bytes = try await Data(collecting: body, upTo: .max) }
        let answer = await router.respond(
            to: MVVMHTTP.HTTPRequest(
                method: request.method.rawValue, path: String(parts[0]), query: query, headers: headers, body: bytes))

        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        let response = HTTPTypes.HTTPResponse(status: .init(code: answer.status), headerFields: fields)
        return (response, answer.body.isEmpty ? nil : HTTPBody(answer.body))
    }
}
