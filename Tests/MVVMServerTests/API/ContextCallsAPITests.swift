import Dispatch
import Foundation
import MVVMSupport
import ServerTestSupport
import TestSupport
import Testing

@testable import MVVMCore
@testable import MVVMHTTP
@testable import MVVMJSON
@testable import MVVMServer

/// Where a request's synchronous call on its session's context runs: on the polling thread that
/// read the request when the context is idle; when it is busy, after the call running on it, on
/// the thread that ends that call.
@Suite("Context calls over HTTP", .timeLimit(.minutes(1)))
struct ContextCallsAPITests {
    private static let polling = #"mvvm_context_calls_total{thread="polling"}"#
    private static let queued = #"mvvm_context_calls_total{thread="queued"}"#

    /// The context of a live session of the application.
    private static func context(of id: String, in app: TestApplication) throws -> ContextActor {
        guard case .live(let session) = app.app.sessions.lookup(id) else {
            throw TestHTTPClient.Failure(description: "no live session \(id)")
        }
        return session.context
    }

    @Test("Inputs to an idle context run on the polling thread that read them and answer their new state")
    func inputsOnThePollingThread() async throws {
        try await APIClient.run { api in
            let id = try await api.app.createSession()
            let path = "/sessions/\(id)/scenes/counter"
            _ = try await api.get(path)
            let before = try #require(try await api.metric(Self.polling))
            for step in 2...6 {
                let response = try await api.post("\(path)/input", ["step": step])
                #expect(response.status == 200)
                #expect((response.json["input"] as? [String: Any])?["step"] as? Int == step)
            }
            let after = try #require(try await api.metric(Self.polling))
            #expect(after - before == 5, "each input ran on a polling thread")
        }
    }

    @Test("An input to a context busy with another call waits, runs on the thread that ends that call, then answers its new state")
    func inputToABusyContext() async throws {
        try await APIClient.run { api in
            let id = try await api.app.createSession()
            let path = "/sessions/\(id)/scenes/counter"
            _ = try await api.get(path)
            let context = try Self.context(of: id, in: api.app)
            let queuedBefore = try #require(try await api.metric(Self.queued))
            let versionBefore = try #require(await context.summary().entries.first { $0.key == "counter" }?.version)

            // Another call holds the context until released (on a thread of its own, as a
            // polling thread would: blocking a pool thread could starve the other tests). Once
            // its call ends, the same thread reads the counter's version: the queued input ran
            // on that thread as the call ended, before the thread was let go.
            let entered = Tally()
            let release = DispatchSemaphore(value: 0)
            let holder = Task {
                try await TestHTTPClient.onThread { () -> UInt64? in
                    _ = context.runIfIdle { _ in
                        entered.increment()
                        release.wait()
                    }
                    return context.runIfIdle { $0.summary() }?.entries.first { $0.key == "counter" }?.version
                }
            }
            try await entered.wait(untilAtLeast: 1)
            async let input = api.post("\(path)/input", ["name": "Ada"])
            // The input waits in the context's queue.
            #expect(try await eventually { try await api.metric(Self.queued) != queuedBefore })
            #expect(try await api.metric(Self.queued) == queuedBefore + 1)
            release.signal()
            let versionAfter = try #require(try await holder.value)
            #expect(versionAfter > versionBefore, "the input ran before the holding thread left the context")
            let response = try await input
            #expect(response.status == 200)
            #expect((response.json["input"] as? [String: Any])?["name"] as? String == "Ada")
            #expect(try await api.get(path).json["output"].flatMap { $0 as? [String: Any] }?["greeting"] as? String == "Hello, Ada")
        }
    }

    @Test("Deleting a session unloads its view models on the polling thread before the 204 leaves")
    func deleteUnloadsBeforeAnswering() async throws {
        try await APIClient.run { api in
            let id = try await api.app.createSession()
            _ = try await api.get("/sessions/\(id)/scenes/counter")
            let context = try Self.context(of: id, in: api.app)
            #expect(context.runIfIdle { $0.withContext { $0.store.keys } }?.isEmpty == false)
            let before = try #require(try await api.metric(Self.polling))
            let deleted = try await api.delete("/sessions/\(id)")
            #expect(deleted.status == 204)
            // Read as soon as the answer is in: no task was left to unload them later.
            #expect(context.runIfIdle { $0.withContext { $0.store.keys } } == [])
            #expect(try await api.metric(Self.polling) == before + 1, "the unloading ran on a polling thread")
        }
    }
}
