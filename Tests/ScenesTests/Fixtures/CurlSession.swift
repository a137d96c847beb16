import Foundation
import ServerTestSupport
import TestSupport

/// One session of a running ``TestApplication``, driven over real HTTP as the example app article's curl
/// tour drives it; every answer is checked for its status and decoded.
struct CurlSession {
    let app: TestApplication
    let id: String

    /// Creates a session (`POST /sessions`).
    init(app: TestApplication) async throws {
        self.init(app: app, id: try await app.createSession())
    }

    /// The session `id`, created already.
    init(app: TestApplication, id: String) {
        self.app = app
        self.id = id
    }

    /// `/sessions/{id}` followed by `rest`.
    func path(_ rest: String) -> String {
        "/sessions/\(id)\(rest)"
    }

    /// `GET …/scenes/{key}`, long-polling when `since` and `wait` are given.
    func state<Output>(_ key: String, as output: Output.Type, since: UInt64? = nil, wait: Int? = nil) async throws -> SceneDocument<Output> {
        try SceneDocument(try await get("/scenes/\(key)" + Self.query(since: since, wait: wait)).body)
    }

    /// Long-polls a scene (`?since=V&wait=5`) until a version satisfies `condition`.
    func waitForState<Output>(
        _ key: String, as output: Output.Type, attempts: Int = 20,
        until condition: (SceneDocument<Output>) -> Bool
    ) async throws -> SceneDocument<Output> {
        var document = try await state(key, as: output)
        for _ in 0..<attempts {
            if condition(document) { return document }
            document = try await state(key, as: output, since: document.version, wait: 5)
        }
        throw TestHTTPClient.Failure(
            description: "'\(key)' never reached the expected state; last version \(document.version), lifecycle \(document.lifecycle)")
    }

    /// `GET …/scenes/{key}/snapshot`, or the changes since a version.
    func snapshot(_ key: String, since: UInt64? = nil) async throws -> SnapshotJSON {
        try SnapshotJSON(try await get("/scenes/\(key)/snapshot" + Self.query(since: since, wait: nil)).body)
    }

    /// `GET …/scenes/{key}/snapshot` once it has caught up with the scene's state `version`.
    ///
    /// The framework publishes a scene's state just before its snapshot, so a client woken by
    /// the state may for a moment still read the previous snapshot.
    func snapshot(_ key: String, atLeast version: UInt64, attempts: Int = 200) async throws -> SnapshotJSON {
        var latest = try await snapshot(key)
        var attempt = 0
        while latest.version < version && attempt < attempts {
            try await Task.sleep(for: .milliseconds(10))
            latest = try await snapshot(key)
            attempt += 1
        }
        guard latest.version >= version else {
            throw TestHTTPClient.Failure(description: "the snapshot of '\(key)' stayed at \(latest.version), before the state's \(version)")
        }
        return latest
    }

    /// `POST …/scenes/{key}/input`.
    func input<Output>(_ key: String, _ members: [String: Any], as output: Output.Type) async throws -> SceneDocument<Output> {
        try SceneDocument(try await post("/scenes/\(key)/input", members).body)
    }

    /// `POST …/scenes/{key}/actions/{name}`; the answer carries `navigation` when the action navigated.
    func action<Output>(_ key: String, _ name: String, _ arguments: [String: Any] = [:], as output: Output.Type) async throws -> SceneDocument<Output>
    {
        try SceneDocument(try await post("/scenes/\(key)/actions/\(name)", arguments).body)
    }

    /// `GET …/navigation`.
    func navigation() async throws -> NavigationDocument {
        try NavigationDocument(try await get("/navigation").body)
    }

    /// `POST …/navigation/back`.
    func back() async throws -> NavigationDocument {
        try NavigationDocument(try await checked(app.request("POST", path("/navigation/back"))).body)
    }

    /// A GET under the session that must answer 200.
    func get(_ rest: String, timeout: Double = 10) async throws -> TestResponse {
        try checked(await app.request("GET", path(rest), timeout: timeout))
    }

    /// A JSON POST under the session that must answer 200.
    func post(_ rest: String, _ body: [String: Any]) async throws -> TestResponse {
        try checked(await app.json("POST", path(rest), body))
    }

    private func checked(_ response: TestResponse) throws -> TestResponse {
        guard response.status == 200 else {
            throw TestHTTPClient.Failure(description: "answered \(response.status): \(response.text)")
        }
        return response
    }

    private static func query(since: UInt64?, wait: Int?) -> String {
        let items = [since.map { "since=\($0)" }, wait.map { "wait=\($0)" }].compactMap(\.self)
        return items.isEmpty ? "" : "?" + items.joined(separator: "&")
    }
}
