import Foundation
import MVVMCore
import MVVMJSON

/// Checks answers against an app's contract (`GET /openapi.json`): finds the operation of a
/// request by its method and path (an operation on a scene's own path before the framework's
/// generic one), then checks the status and the JSON body against what the operation promises.
package struct ContractCheck: Sendable {
    /// One operation: its path as segments (`nil` for a parameter) and its answers by status.
    private struct Operation: Sendable {
        let method: String
        let segments: [String?]
        let id: String
        let responses: [String: JSONValue]
    }

    private let operations: [Operation]
    private let responses: [String: JSONValue]
    private let validator: JSONSchemaValidator

    /// A check against `contract`, an OpenAPI 3.1 document.
    package init(contract: JSONValue) {
        let document = contract.objectValue ?? [:]
        var operations: [Operation] = []
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            let segments = path.split(separator: "/").map { $0.hasPrefix("{") ? nil : String($0) }
            for (method, operation) in item.objectValue ?? [:] where ["get", "post", "put", "patch", "delete"].contains(method) {
                operations.append(
                    Operation(
                        method: method.uppercased(), segments: segments,
                        id: operation.objectValue?["operationId"]?.stringValue ?? "\(method) \(path)",
                        responses: operation.objectValue?["responses"]?.objectValue ?? [:]))
            }
        }
        // The most literal segments first: a scene's own path before the generic one.
        self.operations = operations.sorted { $0.segments.compactMap { $0 }.count > $1.segments.compactMap { $0 }.count }
        let components = document["components"]?.objectValue
        responses = components?["responses"]?.objectValue ?? [:]
        validator = JSONSchemaValidator(components: components?["schemas"]?.objectValue ?? [:])
    }

    /// What is wrong with an answer, or `nil` when it is what the contract promises (or the
    /// contract has no operation for the request).
    /// - Parameters:
    ///   - path: the request's path, with or without its query.
    ///   - contentType: the answer's `Content-Type`.
    ///   - body: the answer's body.
    package func problem(method: String, path: String, status: Int, contentType: String?, body: Data) -> String? {
        // Decoded first: a client may send a key's `/` as `%2F`, which the server reads as `/`.
        let target = String(path.split(separator: "?", maxSplits: 1).first ?? "")
        let segments = (target.removingPercentEncoding ?? target).split(separator: "/").map(String.init)
        guard let operation = operations.first(where: { $0.method == method && Self.matches($0.segments, segments) }) else { return nil }
        guard let response = resolved(operation.responses[String(status)] ?? operation.responses["default"]) else {
            return "\(operation.id) answered \(status), which the contract does not list"
        }
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let mediaType, mediaType.hasSuffix("json"), !body.isEmpty else { return nil }
        guard let content = response.objectValue?["content"]?.objectValue, let schema = content[mediaType]?.objectValue?["schema"] else {
            return "\(operation.id) answered \(status) with \(mediaType), which the contract does not list for it"
        }
        guard let value = JSONValue(json: body) else { return "\(operation.id) answered \(status) with a body that is not JSON" }
        guard let mismatch = validator.mismatch(of: value, against: schema) else { return nil }
        return "\(operation.id) answered \(status) with \(mismatch)"
    }

    private func resolved(_ response: JSONValue?) -> JSONValue? {
        guard let reference = response?.objectValue?["$ref"]?.stringValue else { return response }
        return responses[String(reference.split(separator: "/").last ?? "")]
    }

    private static func matches(_ template: [String?], _ segments: [String]) -> Bool {
        template.count == segments.count
            && zip(template, segments).allSatisfy { literal, segment in literal.map { $0 == segment } ?? !segment.isEmpty }
    }
}
