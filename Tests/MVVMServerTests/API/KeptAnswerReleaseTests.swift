import Foundation
import MVVMServer
import ServerTestSupport
import Synchronization
import TestSupport
import Testing

/// A deleted session is released at once, with its context, even when the runtime still keeps
/// answers of its documents (kept answers hold the board and the session's use, not the session).
@Suite("Kept answers and deleted sessions")
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

    @Test("After reads answered from kept answers, deleting the session releases its context at once")
    func deletedSessionIsReleased() async throws {
        let probe = ContextProbe()
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
        // One polling thread: every read after the first is answered from its kept answer.
        let server = try await TestApplication(catalogue: catalogue, dependencies: dependencies) { $0.http.threads = 1 }
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
