import Foundation
import MVVMServer
import TestSupport
import Testing

/// `POST /sessions/{id}/recreate` (testing mode): process death for one session, over HTTP.
@Suite("Recreating a session, with the report of what it lost", .timeLimit(.minutes(1)))
struct RecreateAPITests {
    private static func testing(_ configuration: inout ApplicationConfiguration) {
        configuration.testing = true
    }

    /// The lost paths of each scene in a recreate's answer, by key.
    private static func lost(_ response: TestResponse) -> [String: [String]] {
        let scenes = response.json["scenes"] as? [[String: Any]] ?? []
        return Dictionary(scenes.compactMap { scene in (scene["key"] as? String).map { ($0, scene["lost"] as? [String] ?? []) } }) { first, _ in first
        }
    }

    @Test("A count kept only in the output is reported lost; the saved input is not; the session keeps its id and its versions grow")
    func reportsWhatWasNotSaved() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            #expect(try await api.post("/sessions/\(id)/scenes/counter/input", ["name": "Ada", "step": 2]).status == 200)
            _ = try await api.post("/sessions/\(id)/scenes/counter/actions/increment", [:])
            let before = try await api.post("/sessions/\(id)/scenes/counter/actions/increment", [:])
            #expect((before.json["output"] as? [String: Any])?["count"] as? Int == 4)
            let version = try #require(before.json["version"] as? Int)

            let answer = try await api.post("/sessions/\(id)/recreate", [:])
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["settled"] as? Bool == true)
            #expect(answer.json["waitingForClock"] as? Bool == false)
            #expect(Self.lost(answer) == ["counter": ["output.count"]])

            let after = try await api.get("/sessions/\(id)/scenes/counter")
            #expect(after.status == 200)
            #expect((after.json["input"] as? [String: Any])?["name"] as? String == "Ada")
            #expect((after.json["output"] as? [String: Any])?["count"] as? Int == 0)
            #expect(
                (after.json["output"] as? [String: Any])?["greeting"] as? String == (before.json["output"] as? [String: Any])?["greeting"] as? String,
                "what the saved input derives is not lost")
            #expect(try #require(after.json["version"] as? Int) > version, "versions go on growing")
            let navigation = try await api.get("/sessions/\(id)/navigation")
            #expect(navigation.status == 200)
        }
    }

    @Test("A session with nothing unsaved loses nothing; pushed scenes come back shown")
    func nothingLost() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            #expect(try await api.post("/sessions/\(id)/scenes/counter/input", ["name": "Lin"]).status == 200)
            #expect(try await api.post("/sessions/\(id)/scenes/counter/actions/open", ["id": 7]).status == 200)
            _ = try await api.loadedState(id, "detail/7")
            let answer = try await api.post("/sessions/\(id)/recreate", [:])
            #expect(answer.status == 200, "\(answer.text)")
            #expect(Self.lost(answer) == ["counter": [], "detail/7": []])
            let stack = (try await api.get("/sessions/\(id)/navigation").json["stack"] as? [[String: Any]])?.compactMap { $0["key"] as? String }
            #expect(stack == ["counter", "detail/7"])
        }
    }

    @Test("The events from before a recreate are not kept: a read after one of them answers events-expired, and one without since the new ones")
    func eventsBeforeARecreateExpire() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            _ = try await api.loadedState(id, "counter")
            let before = try await api.get("/sessions/\(id)/events")
            let seen = try #require(before.json["version"] as? Int)
            // Events after `seen` (the update), then the recreate: a reader after `seen` missed them.
            #expect(try await api.post("/sessions/\(id)/scenes/counter/input", ["name": "Lin"]).status == 200)
            #expect(try await api.get("/sessions/\(id)/events?since=\(seen)").json["version"] as? Int ?? 0 > seen)
            #expect(try await api.post("/sessions/\(id)/recreate", [:]).status == 200)
            APIClient.expectProblem(try await api.get("/sessions/\(id)/events?since=\(seen)"), 410, "events-expired", member: "since")
            APIClient.expectProblem(try await api.get("/sessions/\(id)/events?since=1"), 410, "events-expired", member: "since")
            let after = try await api.get("/sessions/\(id)/events")
            #expect(after.status == 200)
            let seqs = (after.json["events"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int }
            #expect(!seqs.isEmpty && seqs.allSatisfy { $0 > seen }, "\(seqs)")
            // Read after what the recreated session gave, the events go on without a gap.
            let latest = try #require(after.json["version"] as? Int)
            #expect(try await api.get("/sessions/\(id)/events?since=\(latest)").status == 200)
        }
    }

    @Test("A load waiting for the clock is reported as such instead of hanging")
    func waitingForClock() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            _ = try await api.get("/sessions/\(id)/scenes/timed")
            let answer = try await api.post("/sessions/\(id)/recreate", [:])
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["settled"] as? Bool == false)
            #expect(answer.json["waitingForClock"] as? Bool == true)
        }
    }

    @Test("Recreate does not exist without testing mode; an unknown session is a 404, a deleted one a 410")
    func refusals() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            #expect(try await api.post("/sessions/\(id)/recreate", [:]).status == 404)
        }
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            APIClient.expectProblem(try await api.post("/sessions/AAAAAAAAAAAAAAAAAAAAAA/recreate", [:]), 404, "session-not-found")
            APIClient.expectProblem(try await api.post("/sessions/\(id)/recreate?wait=x", [:]), 400, "invalid-parameter", member: "wait")
            #expect(try await api.delete("/sessions/\(id)").status == 204)
            APIClient.expectProblem(try await api.post("/sessions/\(id)/recreate", [:]), 410, "session-gone")
        }
    }
}
