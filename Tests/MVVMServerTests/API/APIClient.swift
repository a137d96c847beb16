import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import ServerTestSupport
import TestSupport
import Testing

/// The real application serving ``APIFixtures`` on port 0, and the requests the API tests send
/// to it over loopback HTTP.
struct APIClient: Sendable {
    let app: TestApplication

    /// Starts an application, runs `body` with a client for it, and stops it, also when `body` throws.
    static func run(
        dependencies: DependencyValues = DependencyValues(), configure: (inout ApplicationConfiguration) -> Void = { _ in },
        _ body: (APIClient) async throws -> Void
    ) async throws {
        let app = try await TestApplication(catalogue: APIFixtures.catalogue(), dependencies: dependencies, configure: configure)
        do {
            try await body(APIClient(app: app))
        } catch {
            await app.stop()
            throw error
        }
        await app.stop()
    }

    func get(_ path: String, headers: [String: String] = [:], timeout: Double = 10) async throws -> TestResponse {
        try await app.request("GET", path, headers: headers, timeout: timeout)
    }

    func delete(_ path: String) async throws -> TestResponse {
        try await app.request("DELETE", path)
    }

    /// A POST whose body is a JSON object.
    func post(_ path: String, _ object: [String: Any]) async throws -> TestResponse {
        try await app.json("POST", path, object)
    }

    /// A POST whose body is sent as written (`nil`: no body at all).
    func post(_ path: String, raw: String?) async throws -> TestResponse {
        try await app.request("POST", path, headers: ["Content-Type": "application/json"], body: raw.map { Data($0.utf8) })
    }

    func createSession() async throws -> String {
        try await app.createSession()
    }

    /// The state of a scene once its view model has loaded (long-polling until it has).
    func loadedState(_ session: String, _ key: String) async throws -> TestResponse {
        var response = try await get("/sessions/\(session)/scenes/\(key)")
        for _ in 0..<100 {
            guard response.status == 200, response.json["lifecycle"] as? String != "loaded" else { return response }
            let version = response.json["version"] as? Int ?? 0
            response = try await get("/sessions/\(session)/scenes/\(key)?since=\(version)&wait=5")
        }
        throw TestHTTPClient.Failure(description: "\(key) did not load: \(response.text)")
    }

    /// The value of an unlabelled metric in `GET /metrics`.
    func metric(_ name: String) async throws -> Int? {
        try await app.metric(name)
    }

    /// Returns once at least `count` long-polls are parked.
    func waitUntilParked(_ count: Int) async throws {
        try await app.waitUntilParked(count)
    }

    /// Checks that a response is problem details of one kind, with `member` when given.
    static func expectProblem(
        _ response: TestResponse, _ status: Int, _ slug: String, member: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers["content-type"] == "application/problem+json", sourceLocation: sourceLocation)
        #expect(response.json["type"] as? String == HTTPError.typeBase + slug, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.json["status"] as? Int == status, sourceLocation: sourceLocation)
        #expect((response.json["title"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
        #expect((response.json["detail"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
        if let member {
            #expect(response.json["member"] as? String == member, sourceLocation: sourceLocation)
        }
    }
}

extension TestResponse {
    /// The `version` member of a JSON answer.
    var documentVersion: Int? {
        json["version"] as? Int
    }
}
