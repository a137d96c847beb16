import Dispatch
import Foundation
@testable import MVVMCore
@testable import MVVMHTTP
@testable import MVVMJSON
@testable import MVVMServer
import MVVMSupport
import TestSupport
import Testing

/// Where a request's synchronous call on its session's context runs: on the polling thread that
/// read the request when the context is idle, on a pool thread when it is busy.
@Suite("Context calls over HTTP", .timeLimit(.minutes(1)))
struct ContextCallsAPITests {
    private static let polling = #"mvvm_context_calls_total{thread="polling"}"#
    private static let pool = #"mvvm_context_calls_total{thread="pool"}"#

    /// The context of a live session of the application.
    private static func context(of id: String, in app: TestApplication) throws -> ContextActor {
        guard case .live(let session) = app.app.sessions.lookup(id, now: app.app.now) else {
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

    @Test("An input to a context busy with another call waits on a pool thread, then answers its new state")
    func inputToABusyContext() async throws {
        try await APIClient.run { api in
            let id = try await api.app.createSession()
            let path = "/sessions/\(id)/scenes/counter"
            _ = try await api.get(path)
            let context = try Self.context(of: id, in: api.app)
            let poolBefore = try #require(try await api.metric(Self.pool))

            // Another call holds the context until released (on a thread of its own, as a
            // polling thread would: blocking a pool thread could starve the other tests).
            let entered = Tally()
            let release = DispatchSemaphore(value: 0)
            let holder = Task {
                try await TestHTTPClient.onThread {
                    _ = context.runIfIdle { _ in
                        entered.increment()
                        release.wait()
                    }
                }
            }
            try await entered.wait(untilAtLeast: 1)
            async let input = api.post("\(path)/input", ["name": "Ada"])
            // The input is handed to a pool thread, where it waits for the context.
            #expect(try await eventually { try await api.metric(Self.pool) != poolBefore })
            #expect(try await api.metric(Self.pool) == poolBefore + 1)
            release.signal()
            try await holder.value
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
