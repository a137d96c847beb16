import Foundation
import MVVMServer
import TestSupport
import Testing

/// The journal of testing mode over HTTP: recording, export as JSON and as a curl script,
/// and replays with their divergence.
@Suite("Session journals, exported and replayed", .timeLimit(.minutes(2)))
struct JournalAPITests {
    private static func testing(_ configuration: inout ApplicationConfiguration) {
        configuration.testing = true
    }

    private static func entries(_ journal: TestResponse) -> [[String: Any]] {
        journal.json["entries"] as? [[String: Any]] ?? []
    }

    /// A session with an input, an action, a refusal, a push and a going back recorded.
    private static func recordedSession(_ api: APIClient) async throws -> String {
        let id = try await api.createSession()
        _ = try await api.loadedState(id, "counter")
        #expect(try await api.post("/sessions/\(id)/scenes/counter/input", ["name": "Ada", "step": 3]).status == 200)
        #expect(try await api.post("/sessions/\(id)/scenes/counter/actions/increment", [:]).status == 200)
        #expect(try await api.post("/sessions/\(id)/scenes/counter/input", ["step": "many"]).status == 422)
        #expect(try await api.post("/sessions/\(id)/scenes/counter/actions/open", ["id": 2]).status == 200)
        _ = try await api.loadedState(id, "detail/2")
        #expect(try await api.post("/sessions/\(id)/navigation/back", raw: nil).status == 200)
        return id
    }

    @Test("Without testing mode there is no journal and no replay")
    func absentWithoutTestingMode() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let journal = try await api.get("/sessions/\(id)/journal")
            let replay = try await api.post("/replays", ["session": id, "dropped": 0, "entries": []])
            #expect(journal.status == 404)
            #expect(replay.status == 404)
        }
    }

    @Test("Every request that changed the session is recorded with its answer, refusals included; reads and the creation are not")
    func records() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await Self.recordedSession(api)
            let journal = try await api.get("/sessions/\(id)/journal")
            #expect(journal.status == 200)
            #expect(journal.json["session"] as? String == id)
            #expect(journal.json["dropped"] as? Int == 0)
            let entries = Self.entries(journal)
            #expect(entries.map { $0["seq"] as? Int } == [1, 2, 3, 4, 5])
            #expect(
                entries.map { "\($0["method"] ?? "") \($0["path"] ?? "")" } == [
                    "POST /scenes/counter/input", "POST /scenes/counter/actions/increment", "POST /scenes/counter/input",
                    "POST /scenes/counter/actions/open", "POST /navigation/back",
                ])
            #expect(entries.map { $0["status"] as? Int } == [200, 200, 422, 200, 200])
            #expect((entries[0]["body"] as? [String: Any])?["name"] as? String == "Ada")
            #expect(((entries[1]["answer"] as? [String: Any])?["output"] as? [String: Any])?["count"] as? Int == 3)
            #expect((entries[2]["answer"] as? [String: Any])?["member"] as? String == "step")
            #expect(entries[4]["body"] is NSNull)
        }
    }

    @Test("Sessions keep their own journals; a deleted session's journal is gone (410); a recreated one's goes on")
    func ownership() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let first = try await api.createSession()
            let second = try await api.createSession()
            _ = try await api.post("/sessions/\(first)/scenes/counter/input", ["name": "one"])
            _ = try await api.post("/sessions/\(second)/scenes/counter/input", ["name": "two"])
            _ = try await api.post("/sessions/\(second)/scenes/counter/input", ["name": "three"])
            let firstEntries = Self.entries(try await api.get("/sessions/\(first)/journal"))
            #expect(firstEntries.count == 1)
            #expect((firstEntries.first?["body"] as? [String: Any])?["name"] as? String == "one")

            #expect(try await api.post("/sessions/\(first)/recreate", [:]).status == 200)
            _ = try await api.post("/sessions/\(first)/scenes/counter/input", ["name": "four"])
            #expect(
                Self.entries(try await api.get("/sessions/\(first)/journal")).map { $0["seq"] as? Int } == [1, 2],
                "the journal belongs to the test, not to the process")

            #expect(try await api.delete("/sessions/\(second)").status == 204)
            APIClient.expectProblem(try await api.get("/sessions/\(second)/journal"), 410, "session-gone")
            APIClient.expectProblem(try await api.get("/sessions/AAAAAAAAAAAAAAAAAAAAAA/journal"), 404, "session-not-found")
            APIClient.expectProblem(try await api.get("/sessions/\(first)/journal?format=xml"), 400, "invalid-parameter", member: "format")
        }
    }

    @Test("The journal keeps its last 1000 entries and counts the dropped ones")
    func bounded() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            for step in 1...1003 {
                _ = try await api.post("/sessions/\(id)/scenes/counter/input", ["step": step])
            }
            let journal = try await api.get("/sessions/\(id)/journal")
            #expect(journal.json["dropped"] as? Int == 3)
            #expect(journal.json["capacity"] as? Int == 1000)
            let entries = Self.entries(journal)
            #expect(entries.count == 1000)
            #expect(entries.first?["seq"] as? Int == 4)
            #expect(entries.last?["seq"] as? Int == 1003)
        }
    }

    @Test("The curl export is a shell script that replays the journal on a new session and prints its id")
    func curlScript() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await Self.recordedSession(api)
            let script = try await api.get("/sessions/\(id)/journal?format=curl")
            #expect(script.status == 200)
            #expect(script.headers["content-type"]?.hasPrefix("text/x-shellscript") == true)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString).sh")
            try Data(script.text.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let child = try ChildProcess("/bin/sh", [file.path, "http://127.0.0.1:\(api.app.port)"])
            let replayed = await withCheckedContinuation { read in
                DispatchQueue.global().async { read.resume(returning: child.firstLine()) }
            }
            #expect(try await child.exitStatus(within: .seconds(30)) == 0)
            #expect(replayed.count == 22 && replayed != id, "the script printed the new session's id: \(replayed)")
            let state = try await api.get("/sessions/\(replayed)/scenes/counter")
            #expect((state.json["input"] as? [String: Any])?["name"] as? String == "Ada")
            #expect((state.json["output"] as? [String: Any])?["count"] as? Int == 3)
        }
    }

    @Test("A journal replays on a new session with no divergence; an edited answer is named where it diverges")
    func replays() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await Self.recordedSession(api)
            let exported = try await api.get("/sessions/\(id)/journal")
            let replay = try await api.post("/replays", raw: exported.text)
            #expect(replay.status == 201, "\(replay.text)")
            #expect(replay.json["steps"] as? Int == 5)
            #expect(replay.json["divergence"] is NSNull)
            let session = try #require(replay.json["session"] as? String)
            #expect(session != id)
            #expect(replay.headers["location"] == "/sessions/\(session)")
            #expect((try await api.get("/sessions/\(session)/scenes/counter").json["output"] as? [String: Any])?["count"] as? Int == 3)

            var journal = try #require(try JSONSerialization.jsonObject(with: Data(exported.text.utf8)) as? [String: Any])
            var entries = Self.entries(exported)
            var answer = try #require(entries[1]["answer"] as? [String: Any])
            answer["output"] = ["count": 4, "greeting": (answer["output"] as? [String: Any])?["greeting"] ?? ""]
            entries[1]["answer"] = answer
            journal["entries"] = entries
            let edited = try await api.post("/replays", journal)
            #expect(edited.status == 201)
            #expect(edited.json["steps"] as? Int == 2)
            let divergence = try #require(edited.json["divergence"] as? [String: Any])
            #expect(divergence["seq"] as? Int == 2)
            #expect(divergence["members"] as? [String] == ["answer.output.count"])
            #expect((((divergence["expected"] as? [String: Any])?["answer"] as? [String: Any])?["output"] as? [String: Any])?["count"] as? Int == 4)
            #expect((((divergence["actual"] as? [String: Any])?["answer"] as? [String: Any])?["output"] as? [String: Any])?["count"] as? Int == 3)
        }
    }

    @Test("A body that is not JSON is recorded as sent (rawBody), and replays and the curl script send it again as it was")
    func malformedBody() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            _ = try await api.loadedState(id, "counter")
            APIClient.expectProblem(try await api.post("/sessions/\(id)/scenes/counter/input", raw: "not json"), 400, "malformed-json")
            #expect(try await api.post("/sessions/\(id)/scenes/counter/input", ["name": "Ada"]).status == 200)
            let exported = try await api.get("/sessions/\(id)/journal")
            let entries = Self.entries(exported)
            #expect(entries.count == 2)
            #expect(entries.first?["rawBody"] as? String == "not json")
            #expect(entries.first?["body"] is NSNull)
            #expect(entries.last?.keys.contains("rawBody") == false, "a JSON body has no raw form")
            let replay = try await api.post("/replays", raw: exported.text)
            #expect(replay.status == 201, "\(replay.text)")
            #expect(replay.json["steps"] as? Int == 2)
            #expect(replay.json["divergence"] is NSNull, "\(replay.text)")
            let script = try await api.get("/sessions/\(id)/journal?format=curl")
            #expect(script.text.contains("--data-binary 'not json'"), "\(script.text)")
        }
    }

    @Test("A document recorded while its scene was loading is compared without its lifecycle and output, which the replay lets finish")
    func loadInFlight() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            _ = try await api.post("/sessions/\(id)/scenes/counter/input", ["name": "Bo"])
            var journal = try #require(
                try JSONSerialization.jsonObject(with: Data(try await api.get("/sessions/\(id)/journal").text.utf8)) as? [String: Any])
            var entries = try #require(journal["entries"] as? [[String: Any]])
            var answer = try #require(entries[0]["answer"] as? [String: Any])
            answer["lifecycle"] = "loading"
            answer["output"] = ["count": 0, "greeting": ""]
            entries[0]["answer"] = answer
            journal["entries"] = entries
            let replay = try await api.post("/replays", journal)
            #expect(replay.status == 201)
            #expect(replay.json["divergence"] is NSNull, "\(replay.text)")
            let lifecycle = try #require(replay.json["lifecycleDivergence"] as? [String: Any], "\(replay.text)")
            #expect(lifecycle["kind"] as? String == "lifecycle")
            #expect(lifecycle["seq"] as? Int == entries[0]["seq"] as? Int)
            #expect(lifecycle["members"] as? [String] == ["answer.lifecycle"])

            answer["input"] = ["name": "Al", "step": 1]
            entries[0]["answer"] = answer
            journal["entries"] = entries
            let diverged = try await api.post("/replays", journal)
            #expect((diverged.json["divergence"] as? [String: Any])?["members"] as? [String] == ["answer.input.name"], "the input is still compared")
        }
    }

    @Test("A first touch, answered before the scene's load, has its output compared: an edited one diverges")
    func firstTouch() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            // An input is answered before the load of the scene it makes has started.
            #expect(try await api.post("/sessions/\(id)/scenes/detail/7/input", [:]).status == 200)
            var journal = try #require(
                try JSONSerialization.jsonObject(with: Data(try await api.get("/sessions/\(id)/journal").text.utf8)) as? [String: Any])
            var entries = try #require(journal["entries"] as? [[String: Any]])
            var answer = try #require(entries[0]["answer"] as? [String: Any])
            #expect(answer["lifecycle"] as? String != "loaded", "the first touch is answered before the load: \(answer)")
            let untouched = try await api.post("/replays", journal)
            #expect(untouched.json["divergence"] is NSNull, "\(untouched.text)")
            #expect(untouched.json["lifecycleDivergence"] is NSNull, "\(untouched.text)")
            var output = try #require(answer["output"] as? [String: Any])
            output["id"] = 8
            answer["output"] = output
            entries[0]["answer"] = answer
            journal["entries"] = entries
            let edited = try await api.post("/replays", journal)
            let divergence = try #require(edited.json["divergence"] as? [String: Any], "\(edited.text)")
            #expect(divergence["kind"] as? String == "answer")
            #expect(divergence["members"] as? [String] == ["answer.output.id"])
        }
    }

    @Test("A divergence names the HTTP status apart from the answer's own status member")
    func statusPaths() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            _ = try await api.loadedState(id, "counter")
            #expect(try await api.post("/sessions/\(id)/scenes/counter/input", ["step": "many"]).status == 422)
            let journal = try #require(
                try JSONSerialization.jsonObject(with: Data(try await api.get("/sessions/\(id)/journal").text.utf8)) as? [String: Any])
            func replayed(_ edit: (inout [String: Any]) -> Void) async throws -> [String]? {
                var changed = journal
                var entries = changed["entries"] as? [[String: Any]] ?? []
                edit(&entries[0])
                changed["entries"] = entries
                return ((try await api.post("/replays", changed)).json["divergence"] as? [String: Any])?["members"] as? [String]
            }
            #expect(try await replayed { $0["status"] = 400 } == ["status"])
            #expect(
                try await replayed { entry in
                    var problem = entry["answer"] as? [String: Any] ?? [:]
                    problem["status"] = 400
                    entry["answer"] = problem
                } == ["answer.status"])
        }
    }

    @Test("A replay whose work waits for the test clock answers without waiting for it, and says so")
    func replayWaitingForClock() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            #expect(try await api.post("/sessions/\(id)/scenes/timed/actions/chain", [:]).status == 200)
            let replay = try await api.post("/replays", raw: try await api.get("/sessions/\(id)/journal").text)
            #expect(replay.status == 201, "\(replay.text)")
            #expect(replay.json["divergence"] is NSNull, "\(replay.text)")
            #expect(replay.json["waitingForClock"] as? Bool == true)
            let plain = try await api.post("/replays", ["session": id, "dropped": 0, "entries": []])
            #expect(
                plain.json["waitingForClock"] as? Bool == false,
                "the new session's root has nothing waiting; the other sessions' waits are not its own")
        }
    }

    @Test("What is not a journal is refused with problem details, never a 5xx")
    func refusals() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let entry: [String: Any] = [
                "seq": 1, "method": "POST", "path": "/scenes/counter/input", "body": ["name": "x"], "status": 200, "answer": NSNull(),
            ]
            func journal(_ entries: [[String: Any]]) -> [String: Any] { ["session": "s", "dropped": 0, "entries": entries] }
            func with(_ key: String, _ value: Any) -> [String: Any] {
                var changed = entry
                changed[key] = value
                return changed
            }

            APIClient.expectProblem(try await api.post("/replays", raw: "{\"entries\": ["), 400, "malformed-json")
            APIClient.expectProblem(try await api.post("/replays", raw: "[]"), 400, "bad-request")
            APIClient.expectProblem(try await api.post("/replays", ["entries": "none"]), 422, "invalid-journal")
            APIClient.expectProblem(
                try await api.post("/replays", journal([with("path", "/scenes/unknown/input")])), 422, "invalid-journal", member: "entries[0]")
            APIClient.expectProblem(
                try await api.post("/replays", journal([with("path", "/../../sessions")])), 422, "invalid-journal", member: "entries[0]")
            APIClient.expectProblem(
                try await api.post("/replays", journal([with("path", "/scenes/counter/input?x=1")])), 422, "invalid-journal", member: "entries[0]")
            APIClient.expectProblem(try await api.post("/replays", journal([with("method", "GET")])), 422, "invalid-journal", member: "entries[0]")
            APIClient.expectProblem(try await api.post("/replays", journal([with("status", 42)])), 422, "invalid-journal", member: "entries[0]")
            APIClient.expectProblem(
                try await api.post("/replays", journal(Array(repeating: entry, count: 1001))), 422, "invalid-journal", member: "entries")
            APIClient.expectProblem(try await api.post("/replays?wait=soon", journal([entry])), 400, "invalid-parameter", member: "wait")
        }
    }
}
