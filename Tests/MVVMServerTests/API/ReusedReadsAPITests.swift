import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import TestSupport
import Testing

/// Plain reads of published documents (a scene's state, its snapshot, the navigation) are
/// answered again from the answer the server kept, while the document is current. One polling
/// thread, so that every read after the first one is such a reuse.
@Suite("Reads answered from kept answers, over HTTP")
struct ReusedReadsAPITests {
    @Test("A read again after an input, a push and back, an action on a snapshot, or the session's deletion is never stale")
    func neverStale() async throws {
        try await APIClient.run(configure: { $0.http.threads = 1 }) { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/scenes/counter"
            let loaded = try await api.loadedState(id, "counter")
            let first = try await api.get(path)
            #expect(first.text == loaded.text)
            #expect(try await api.get(path).text == first.text)
            #expect(try await api.post("\(path)/input", ["name": "Ada", "step": 5]).status == 200)
            let changed = try await api.get(path)
            #expect(try #require(changed.documentVersion) > (first.documentVersion ?? .max))
            #expect((changed.json["input"] as? [String: Any])?["name"] as? String == "Ada")
            #expect(try await api.get(path).text == changed.text)

            let navigation = "/sessions/\(id)/navigation"
            let root = try await api.get(navigation)
            #expect(try await api.get(navigation).text == root.text)
            #expect(try await api.post("\(path)/actions/open", ["id": 3]).status == 200)
            let pushed = try await api.get(navigation)
            #expect((pushed.json["stack"] as? [[String: Any]])?.map { $0["key"] as? String } == ["counter", "detail/3"])
            #expect(try await api.app.request("POST", "\(navigation)/back").status == 200)
            let popped = try await api.get(navigation)
            #expect((popped.json["stack"] as? [[String: Any]])?.map { $0["key"] as? String } == ["counter"])
            #expect(try #require(popped.documentVersion) > (pushed.documentVersion ?? .max))

            let snapshot = "/sessions/\(id)/scenes/shelf/snapshot"
            let before = try await api.get(snapshot)
            #expect(before.status == 200)
            #expect(try await api.get(snapshot).text == before.text)
            #expect(try await api.post("/sessions/\(id)/scenes/shelf/actions/add", ["id": "3", "title": "Hamlet"]).status == 200)
            let after = try await api.get(snapshot)
            #expect(try #require(after.documentVersion) > (before.documentVersion ?? .max))
            #expect(after.text.contains("Hamlet"))

            #expect(try await api.delete("/sessions/\(id)").status == 204)
            APIClient.expectProblem(try await api.get(path), 410, "session-gone")
            APIClient.expectProblem(try await api.get(navigation), 410, "session-gone")
            APIClient.expectProblem(try await api.get(snapshot), 410, "session-gone")
        }
    }

    @Test("A session read only through kept answers stays alive; once the reads stop, it expires")
    func keptReadsKeepTheSessionAlive() async throws {
        try await APIClient.run(configure: {
            $0.http.threads = 1
            $0.sessionIdleSeconds = 1
        }) { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/scenes/counter"
            _ = try await api.loadedState(id, "counter")
            // Reads one after another for three times the idle timeout: only the first one is
            // routed, and without the reuses counting as uses the session would expire.
            var statuses: Set<Int> = []
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .seconds(3) {
                statuses.insert(try await api.get(path).status)
            }
            #expect(statuses == [200])
            #expect(try await api.metric("mvvm_sessions_expired_total") ?? 0 == 0)
            #expect(
                try await eventually(within: .seconds(10), every: .milliseconds(20)) {
                    try await api.metric("mvvm_sessions_expired_total") ?? 0 > 0
                })
            #expect(try await api.metric("mvvm_sessions_expired_total") == 1)
            APIClient.expectProblem(try await api.get(path), 410, "session-gone")
        }
    }
}
