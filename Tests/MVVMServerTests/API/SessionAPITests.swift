import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import TestSupport
import Testing

@Suite("Sessions over HTTP")
struct SessionAPITests {
    @Test("Creating a session answers 201 with its Location, its id and the root scene's navigation")
    func createSession() async throws {
        try await APIClient.run { api in
            let response = try await api.app.request("POST", "/sessions")
            #expect(response.status == 201)
            let id = try #require(response.json["id"] as? String)
            #expect(id.utf8.count == 22)
            #expect(response.headers["location"] == "/sessions/\(id)")
            #expect(response.headers["cache-control"] == "no-store")
            let navigation = try #require(response.json["navigation"] as? [String: Any])
            let stack = try #require(navigation["stack"] as? [[String: Any]])
            #expect(stack.count == 1)
            #expect(stack.first?["key"] as? String == "counter")
            #expect(stack.first?["presentation"] as? String == "root")
            #expect(stack.first?["path"] as? String == "/sessions/\(id)/scenes/counter")
            #expect(navigation["modal"] is NSNull)
        }
    }

    @Test("A session lists its navigation and the entries of its store")
    func sessionSummary() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let state = try await api.loadedState(id, "counter")
            let response = try await api.get("/sessions/\(id)")
            #expect(response.status == 200)
            #expect(response.headers["cache-control"] == "no-store")
            #expect(response.json["id"] as? String == id)
            #expect(response.json["navigation"] is [String: Any])
            let entries = try #require(response.json["entries"] as? [[String: Any]])
            #expect(entries.count == 1)
            #expect(entries.first?["key"] as? String == "counter")
            #expect(entries.first?["scene"] as? String == "counter")
            #expect(entries.first?["lifecycle"] as? String == "loaded")
            #expect(entries.first?["version"] as? Int == state.documentVersion)
        }
    }

    @Test("An unknown session id answers 404, whether well-formed or not")
    func unknownSession() async throws {
        try await APIClient.run { api in
            APIClient.expectProblem(try await api.get("/sessions/AAAAAAAAAAAAAAAAAAAAAA"), 404, "session-not-found")
            APIClient.expectProblem(try await api.get("/sessions/nope/scenes/counter"), 404, "session-not-found")
            APIClient.expectProblem(try await api.delete("/sessions/AAAAAAAAAAAAAAAAAAAAAA"), 404, "session-not-found")
        }
    }

    @Test("Two sessions are isolated: what one does never shows in the other")
    func sessionsAreIsolated() async throws {
        try await APIClient.run { api in
            let first = try await api.createSession()
            let second = try await api.createSession()
            #expect(first != second)
            let before = try await api.loadedState(second, "counter")

            #expect(try await api.post("/sessions/\(first)/scenes/counter/input", ["name": "Ada", "step": 5]).status == 200)
            #expect(try await api.post("/sessions/\(first)/scenes/counter/actions/increment", raw: nil).status == 200)
            #expect(try await api.post("/sessions/\(first)/scenes/counter/actions/open", ["id": 7]).status == 200)

            let mine = try await api.get("/sessions/\(first)/scenes/counter")
            #expect((mine.json["output"] as? [String: Any])?["count"] as? Int == 5)
            let theirs = try await api.get("/sessions/\(second)/scenes/counter")
            #expect(theirs.text == before.text)
            #expect((theirs.json["input"] as? [String: Any])?["name"] as? String == "")

            let navigation = try await api.get("/sessions/\(second)/navigation")
            #expect((navigation.json["stack"] as? [Any])?.count == 1)
            #expect(!navigation.text.contains(first))
            let entries = try #require(try await api.get("/sessions/\(second)").json["entries"] as? [[String: Any]])
            #expect(entries.map { $0["key"] as? String } == ["counter"])
            #expect(!(try await api.get("/sessions/\(second)/events").text.contains("detail/7")))

            // The pushed detail lives in the first session's store, under the first session's path.
            let firstEntries = try #require(try await api.get("/sessions/\(first)").json["entries"] as? [[String: Any]])
            #expect(firstEntries.map { $0["key"] as? String } == ["counter", "detail/7"])
            let pushedPath = try #require(
                ((try await api.get("/sessions/\(first)/navigation")).json["stack"] as? [[String: Any]])?.last?["path"] as? String)
            #expect(pushedPath == "/sessions/\(first)/scenes/detail/7")
        }
    }

    @Test("Deleting a session answers its parked requests 410, and every later request 410")
    func deleteWithParkedRequests() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let state = try await api.loadedState(id, "counter")
            let version = try #require(state.documentVersion)
            let navigationVersion = try #require(try await api.get("/sessions/\(id)/navigation").documentVersion)
            let snapshotVersion = try #require(try await api.get("/sessions/\(id)/scenes/shelf/snapshot").documentVersion)
            _ = try await api.loadedState(id, "shelf")
            let eventsVersion = try #require(try await api.get("/sessions/\(id)/events").documentVersion)

            async let scene = api.get("/sessions/\(id)/scenes/counter?since=\(version)&wait=30", timeout: 40)
            async let navigation = api.get("/sessions/\(id)/navigation?since=\(navigationVersion)&wait=30", timeout: 40)
            async let snapshot = api.get("/sessions/\(id)/scenes/shelf/snapshot?since=\(snapshotVersion)&wait=30", timeout: 40)
            async let events = api.get("/sessions/\(id)/events?since=\(eventsVersion)&wait=30", timeout: 40)
            try await api.waitUntilParked(4)

            let deleted = try await api.delete("/sessions/\(id)")
            #expect(deleted.status == 204)
            #expect(deleted.headers["cache-control"] == "no-store")
            for parked in try await [scene, navigation, snapshot, events] {
                APIClient.expectProblem(parked, 410, "session-gone")
            }
            APIClient.expectProblem(try await api.get("/sessions/\(id)"), 410, "session-gone")
            APIClient.expectProblem(try await api.get("/sessions/\(id)/scenes/counter"), 410, "session-gone")
            APIClient.expectProblem(try await api.post("/sessions/\(id)/scenes/counter/input", ["name": "Ada"]), 410, "session-gone")
            APIClient.expectProblem(try await api.delete("/sessions/\(id)"), 410, "session-gone")
            #expect(try await api.metric("mvvm_sessions_live") == 0)
            #expect(try await api.metric("mvvm_parked_requests") == 0)
        }
    }

    @Test("Clearing the store makes the next GET build a fresh view model, with a later version")
    func clearStore() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            _ = try await api.loadedState(id, "counter")
            let counted = try await api.post("/sessions/\(id)/scenes/counter/actions/add", ["amount": 3])
            #expect((counted.json["output"] as? [String: Any])?["count"] as? Int == 3)
            let before = try #require(counted.documentVersion)
            let eventsBefore = try #require(try await api.get("/sessions/\(id)/events").documentVersion)

            let cleared = try await api.delete("/sessions/\(id)/store")
            #expect(cleared.status == 204)
            #expect(cleared.headers["cache-control"] == "no-store")
            #expect((try await api.get("/sessions/\(id)").json["entries"] as? [Any])?.isEmpty == true)

            let fresh = try await api.get("/sessions/\(id)/scenes/counter")
            #expect(fresh.status == 200)
            #expect(fresh.json["lifecycle"] as? String == "setuped")
            #expect((fresh.json["output"] as? [String: Any])?["count"] as? Int == 0)
            #expect(try #require(fresh.documentVersion) > before)
            let loaded = try await api.loadedState(id, "counter")
            #expect(try #require(loaded.documentVersion) > (fresh.documentVersion ?? 0))

            let events = try #require(try await api.get("/sessions/\(id)/events?since=\(eventsBefore)").json["events"] as? [[String: Any]])
            let types = events.filter { $0["key"] as? String == "counter" }.compactMap { $0["type"] as? String }
            #expect(types == ["willUnload", "didUnload", "didSetup", "willLoad", "didLoad"])
        }
    }

    @Test("At the session cap, the least recently used session is evicted and answers 410")
    func sessionCapEvicts() async throws {
        try await APIClient.run(configure: { $0.maxSessions = 2 }) { api in
            let first = try await api.createSession()
            try await Task.sleep(for: .milliseconds(20))
            let second = try await api.createSession()
            try await Task.sleep(for: .milliseconds(20))
            #expect(try await api.get("/sessions/\(first)").status == 200)
            try await Task.sleep(for: .milliseconds(20))

            let third = try await api.createSession()
            APIClient.expectProblem(try await api.get("/sessions/\(second)"), 410, "session-gone")
            #expect(try await api.get("/sessions/\(first)").status == 200)
            #expect(try await api.get("/sessions/\(third)").status == 200)
            #expect(try await api.metric("mvvm_sessions_live") == 2)
            #expect(try await api.metric("mvvm_sessions_evicted_total") == 1)
        }
    }

    @Test("At the session cap, when every session has a parked request, creating one answers 503")
    func sessionCapWithParkedRequests() async throws {
        try await APIClient.run(configure: { $0.maxSessions = 2 }) { api in
            let first = try await api.createSession()
            let second = try await api.createSession()
            let firstVersion = try #require(try await api.get("/sessions/\(first)/navigation").documentVersion)
            let secondVersion = try #require(try await api.get("/sessions/\(second)/navigation").documentVersion)
            async let firstParked = api.get("/sessions/\(first)/navigation?since=\(firstVersion)&wait=30", timeout: 40)
            async let secondParked = api.get("/sessions/\(second)/navigation?since=\(secondVersion)&wait=30", timeout: 40)
            try await api.waitUntilParked(2)

            let refused = try await api.app.request("POST", "/sessions")
            APIClient.expectProblem(refused, 503, "capacity-reached")
            #expect(refused.headers["retry-after"] == "1")
            #expect(try await api.metric("mvvm_sessions_live") == 2)
            #expect(try await api.metric("mvvm_sessions_evicted_total") == 0)

            #expect(try await api.delete("/sessions/\(first)").status == 204)
            #expect(try await api.delete("/sessions/\(second)").status == 204)
            APIClient.expectProblem(try await firstParked, 410, "session-gone")
            APIClient.expectProblem(try await secondParked, 410, "session-gone")
            #expect(try await api.app.request("POST", "/sessions").status == 201)
        }
    }

    @Test("A session idle for longer than its timeout expires and answers 410")
    func idleSessionExpires() async throws {
        try await APIClient.run(configure: { $0.sessionIdleSeconds = 0.2 }) { api in
            let id = try await api.createSession()
            #expect(
                try await eventually(within: .seconds(10), every: .milliseconds(20)) {
                    try await api.metric("mvvm_sessions_expired_total") ?? 0 > 0
                })
            #expect(try await api.metric("mvvm_sessions_expired_total") == 1)
            APIClient.expectProblem(try await api.get("/sessions/\(id)"), 410, "session-gone")
        }
    }
}
