import Foundation
import MVVMClient
import MVVMServer

extension TestServer {
    /// Tests a restart: serves the app in `mode` while `before` runs, shuts it down (its
    /// sessions saved), then serves it again on the same saved state while `after` runs with
    /// what `before` returned (a session's id, say):
    /// ```swift
    /// try await TestServer(catalogue: CounterApp.catalogue).testRestart(mode) { client in
    ///     let session = try await client.createSession()
    ///     try await session.scene("counter", input: Input.self, output: Output.self).perform("increment")
    ///     return session.id
    /// } after: { client, id in
    ///     #expect(try await client.session(id: id).scene("counter", input: Input.self, output: Output.self).state().output.count == 1)
    /// }
    /// ```
    /// With no ``configuration``'s `storage`, both servers save in a temporary SQLite file,
    /// removed afterwards; with one, they use it.
    public func testRestart<Saved: Sendable, Result: Sendable>(
        _ mode: TestMode,
        before: (MVVMClient) async throws -> Saved,
        after: (MVVMClient, Saved) async throws -> Result
    ) async throws -> Result {
        var server = self
        var folder: URL?
        if configuration.storage == nil {
            let temporary = FileManager.default.temporaryDirectory.appending(path: "mvvm-restart-\(UUID().uuidString)")
            folder = temporary
            server.configuration.storage = .sqlite(path: temporary.appending(path: "state.sqlite").path)
        }
        defer {
            if let folder { try? FileManager.default.removeItem(at: folder) }
        }
        let saved = try await server.test(mode, before)
        return try await server.test(mode) { client in try await after(client, saved) }
    }
}
