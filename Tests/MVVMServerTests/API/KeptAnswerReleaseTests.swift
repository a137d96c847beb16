import Foundation
import MVVMServer
import ServerTestSupport
import Synchronization
import TestSupport
import Testing

/// A deleted session is released at once, with its context, even when the runtime still keeps
/// answers of its documents (kept answers hold the board and the session's use, not the session),
/// and after long-polls on it were answered.
@Suite("Kept answers, long-polls and deleted sessions")
struct KeptAnswerReleaseTests {
    /// A view model whose factory records, weakly, the context it is made in.
    final class Probed: ViewModel {
        struct Output: Codable, Sendable, Equatable {
            var ready = true
        }

        var input = EmptyInput()
        let output = Output()
    }

    /// The context the factory saw, held weakly: whether it has been released.
    final class ContextProbe: Sendable {
        // Safe: the weak reference is only read and written under the mutex below, and
        // loading a weak reference never touches the object it names, only its side table.
        private struct Weak: @unchecked Sendable {
            weak var context: ViewModelContext?
        }

        private let seen = Mutex<Weak?>(nil)

        func record(_ context: ViewModelContext?) {
            seen.withLock { $0 = Weak(context: context) }
        }

        /// Whether a context was recorded and has been released since.
        var isReleased: Bool {
            seen.withLock { $0 != nil && $0?.context == nil }
        }
    }

    private enum ProbeKey: DependencyKey {
        static let defaultValue = ContextProbe()
    }

    /// The counted scene of a session that records its context in `probe`.
    private static func probedServer(_ probe: ContextProbe, threads: Int? = nil) async throws -> TestApplication {
        var dependencies = DependencyValues()
        dependencies[ProbeKey.self] = probe
        let catalogue = SceneCatalogue(
            scenes: [
                Scene(
                    "counted", key: "counted", viewModel: Probed.self,
                    factory: SingleViewModelFactory { extras in
                        extras.dependencies[ProbeKey.self].record(extras.context)
                        return Probed()
                    })
            ], rootKey: "counted")
        return try await TestApplication(catalogue: catalogue, dependencies: dependencies) { configuration in
            if let threads { configuration.http.threads = threads }
        }
    }

    @Test("Long-polls answered by their deadline and by the session's end leave nothing holding the deleted session")
    func sessionWithAnsweredLongPollsIsReleased() async throws {
        let probe = ContextProbe()
        let server = try await Self.probedServer(probe)
        let id = try await server.createSession()
        let path = "/sessions/\(id)/scenes/counted"
        #expect(try await eventually { try await server.request("GET", path).text.contains(#""lifecycle":"loaded""#) })
        let state = try JSONSerialization.jsonObject(with: try await server.request("GET", path).body) as? [String: Any]
        let version = try #require(state?["version"] as? Int)

        // One answered by its deadline, one woken by the session's end.
        let timedOut = try await server.request("GET", "\(path)?since=\(version)&wait=0.2")
        #expect(timedOut.status == 200)
        let woken = Task { try await server.request("GET", "\(path)?since=\(version)&wait=30") }
        try await server.waitUntilParked()
        #expect(try await server.request("DELETE", "/sessions/\(id)").status == 204)
        #expect(try await woken.value.status == 410)

        #expect(try await eventually { probe.isReleased }, "an answered long-poll keeps nothing of its session")
        await server.stop()
    }

    @Test("After reads answered from kept answers, deleting the session releases its context at once")
    func deletedSessionIsReleased() async throws {
        let probe = ContextProbe()
        // One polling thread: every read after the first is answered from its kept answer.
        let server = try await Self.probedServer(probe, threads: 1)
        let id = try await server.createSession()
        let path = "/sessions/\(id)/scenes/counted"
        // Once loaded, the state stops changing (the root's load may still run after the creation's answer).
        #expect(try await eventually { try await server.request("GET", path).text.contains(#""lifecycle":"loaded""#) })
        let first = try await server.request("GET", path)
        for _ in 0..<3 {
            #expect(try await server.request("GET", path).text == first.text)
        }
        #expect(try await server.request("GET", "/sessions/\(id)/navigation").status == 200)
        #expect(!probe.isReleased)

        #expect(try await server.request("DELETE", "/sessions/\(id)").status == 204)

        #expect(try await eventually { probe.isReleased }, "the context is released without waiting for its kept answers' slots to be reused")
        #expect(try await server.request("GET", path).status == 410)
        await server.stop()
    }
}
