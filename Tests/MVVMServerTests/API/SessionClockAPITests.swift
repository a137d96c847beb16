import Foundation
import MVVMServer
import TestSupport
import Testing

/// Each session's own test clock over real HTTP: `GET …/clock` and `POST …/clock/advance`,
/// the server-wide move beside them, and the journal and replays that repeat the moves.
@Suite("A clock of its own for each session, in testing mode", .timeLimit(.minutes(1)))
struct SessionClockAPITests {
    private static func testing(_ configuration: inout ApplicationConfiguration) {
        configuration.testing = true
    }

    private static func lifecycle(_ api: APIClient, _ id: String) async throws -> String? {
        try await api.get("/sessions/\(id)/scenes/timed").json["lifecycle"] as? String
    }

    private static func advance(_ api: APIClient, _ path: String, _ seconds: Double) async throws -> TestResponse {
        let answer = try await api.post(path, ["seconds": seconds])
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.json["settled"] as? Bool == true, "\(answer.text)")
        return answer
    }

    @Test("Moving one session's clock wakes its waits alone; the server-wide move moves every session's")
    func sessionsKeepTheirOwnTime() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let first = try await api.createSession()
            let second = try await api.createSession()
            for id in [first, second] { _ = try await api.get("/sessions/\(id)/scenes/timed") }
            let moved = try await Self.advance(api, "/sessions/\(first)/clock/advance", 30)
            #expect(moved.json["now"] as? Double == 30)
            #expect(try await Self.lifecycle(api, first) == "loaded")
            #expect(try await Self.lifecycle(api, second) == "loading", "another session's move is not this one's time")
            let other = try await api.get("/sessions/\(second)/clock")
            #expect(other.json["now"] as? Double == 0)
            #expect(other.json["waiting"] as? Int == 1)
            #expect(other.json["nextDeadline"] as? Double == 30)
            // The server-wide reading: the second session's wait, 30 s away in every clock's time.
            let all = try await api.get("/testing/clock")
            #expect(all.json["now"] as? Double == 0)
            #expect(all.json["waiting"] as? Int == 1)
            #expect(all.json["nextDeadline"] as? Double == 30)

            _ = try await Self.advance(api, "/testing/clock/advance", 30)
            #expect(try await Self.lifecycle(api, second) == "loaded")
            #expect(try await api.get("/sessions/\(first)/clock").json["now"] as? Double == 60)
            #expect(try await api.get("/sessions/\(second)/clock").json["now"] as? Double == 30)
            #expect(try await api.get("/testing/clock").json["now"] as? Double == 30)
        }
    }

    @Test("A session's journal records its clock's moves, its own and the server-wide ones while it lived, at their places")
    func journalRecordsMoves() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            #expect(try await api.post("/sessions/\(id)/scenes/timed/actions/chain", [:]).status == 200)
            _ = try await Self.advance(api, "/sessions/\(id)/clock/advance", 10)
            _ = try await Self.advance(api, "/testing/clock/advance", 5)
            let later = try await api.createSession()
            let entries = try await api.get("/sessions/\(id)/journal").json["entries"] as? [[String: Any]] ?? []
            #expect(entries.map { $0["path"] as? String } == ["/scenes/timed/actions/chain", "/clock/advance", "/clock/advance"])
            #expect(entries.map { ($0["body"] as? [String: Any])?["seconds"] as? Double } == [nil, 10, 5])
            #expect((entries.last?["answer"] as? [String: Any])?["now"] as? Double == 15)
            #expect(
                (try await api.get("/sessions/\(later)/journal").json["entries"] as? [Any])?.isEmpty == true, "a session made after a move has none")
        }
    }

    @Test("A journal that spans clock moves replays with no divergence, on the replayed session's clock alone, and ends where the recording did")
    func replaysRepeatTime() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            let bystander = try await api.createSession()
            _ = try await api.get("/sessions/\(bystander)/scenes/timed")
            // The timed scene is made by an input (its load waits 30 s), then its chain ticks
            // every 10 s: one clock move at a time wakes one of them.
            #expect(try await api.post("/sessions/\(id)/scenes/timed/input", [:]).status == 200)
            _ = try await Self.advance(api, "/sessions/\(id)/clock/advance", 30)
            #expect(try await api.post("/sessions/\(id)/scenes/timed/actions/chain", [:]).status == 200)
            _ = try await Self.advance(api, "/sessions/\(id)/clock/advance", 20)
            _ = try await Self.advance(api, "/sessions/\(id)/clock/advance", 10)
            let recorded = try await api.get("/sessions/\(id)/scenes/timed")
            #expect(recorded.json["lifecycle"] as? String == "loaded")
            #expect((recorded.json["output"] as? [String: Any])?["ticks"] as? Int == 3)

            let exported = try await api.get("/sessions/\(id)/journal")
            let replay = try await api.post("/replays", raw: exported.text)
            #expect(replay.status == 201, "\(replay.text)")
            #expect(replay.json["divergence"] is NSNull, "\(replay.text)")
            #expect(replay.json["waitingForClock"] as? Bool == false, "\(replay.text)")
            let replayed = try #require(replay.json["session"] as? String)
            let state = try await api.get("/sessions/\(replayed)/scenes/timed")
            #expect(state.json["lifecycle"] as? String == "loaded")
            #expect((state.json["output"] as? [String: Any])?["ticks"] as? Int == (recorded.json["output"] as? [String: Any])?["ticks"] as? Int)
            #expect(try await api.get("/sessions/\(replayed)/clock").json["now"] as? Double == 60)
            // No other clock moved.
            #expect(try await api.get("/sessions/\(id)/clock").json["now"] as? Double == 60)
            #expect(try await api.get("/sessions/\(bystander)/clock").json["now"] as? Double == 0)
            #expect(try await Self.lifecycle(api, bystander) == "loading")
            #expect(try await api.get("/testing/clock").json["now"] as? Double == 0)

            let script = try await api.get("/sessions/\(id)/journal?format=curl").text
            #expect(
                script.contains("\"$base/sessions/$session\"'/clock/advance' -H 'Content-Type: application/json' --data-binary '{\"seconds\":30}'"),
                "\(script)")
        }
    }

    @Test("A session's clock routes refuse what is not a move, and do not exist without testing mode")
    func refusals() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            APIClient.expectProblem(try await api.post("/sessions/\(id)/clock/advance", ["seconds": -1]), 422, "invalid-arguments", member: "seconds")
            APIClient.expectProblem(try await api.post("/sessions/\(id)/clock/advance", raw: "{"), 400, "malformed-json")
            #expect(try await api.get("/sessions/AAAAAAAAAAAAAAAAAAAAAA/clock").status == 404)
            #expect(try await api.get("/sessions/\(id)/clock").json["now"] as? Double == 0)
        }
        try await APIClient.run { api in
            let id = try await api.createSession()
            #expect(try await api.get("/sessions/\(id)/clock").status == 404)
            #expect(try await api.post("/sessions/\(id)/clock/advance", ["seconds": 1]).status == 404)
        }
    }
}
