import Foundation
import MVVMServer
import TestSupport
import Testing

/// The inspector's files and the session list it reads, over HTTP (its behaviour in a browser
/// is tested in headless Chromium by scripts/inspector-test).
@Suite("The inspector page and the session list", .timeLimit(.minutes(1)))
struct InspectorAPITests {
    private static func testing(_ configuration: inout ApplicationConfiguration) {
        configuration.testing = true
    }

    @Test("The page, its script and its styles are served with a policy that forbids inline script")
    func files() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            for (path, type) in [
                ("/inspector", "text/html"), ("/inspector/inspector.js", "text/javascript"), ("/inspector/inspector.css", "text/css"),
            ] {
                let file = try await api.get(path)
                #expect(file.status == 200, "\(path)")
                #expect(file.headers["content-type"]?.hasPrefix(type) == true, "\(path)")
                let policy = try #require(file.headers["content-security-policy"])
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), "\(policy)")
                #expect(file.headers["x-content-type-options"] == "nosniff")
                #expect(!file.text.isEmpty)
            }
            APIClient.expectProblem(try await api.get("/inspector?session=abc"), 400, "invalid-parameter", member: "session")
            let page = try await api.get("/inspector?session=\(try await api.createSession())")
            #expect(page.text.contains("<script src=\"/inspector/inspector.js\"></script>"))
            #expect(!page.text.contains("<script>"), "no inline script")
        }
    }

    @Test("The session list holds every live session, the most recently used first")
    func sessionList() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let first = try await api.createSession()
            let second = try await api.createSession()
            // Uses are counted in milliseconds: the read of the first comes a few later.
            try await Task.sleep(for: .milliseconds(20))
            _ = try await api.get("/sessions/\(first)/navigation")
            let list = try await api.get("/testing/sessions")
            #expect(list.status == 200)
            let sessions = list.json["sessions"] as? [[String: Any]] ?? []
            #expect(sessions.compactMap { $0["id"] as? String } == [first, second])
            #expect((sessions.first?["ageSeconds"] as? Double ?? -1) >= 0)
            #expect(try await api.delete("/sessions/\(second)").status == 204)
            let after = try await api.get("/testing/sessions").json["sessions"] as? [[String: Any]] ?? []
            #expect(after.compactMap { $0["id"] as? String } == [first])
        }
    }

    @Test("An observer's reads (MVVM-Observer) are not uses: the session's idle time goes on, and a plain read resets it")
    func observersReadsLeaveIdleTime() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            let base = "/sessions/\(id)"
            // Plain reads first, of the loaded scene: the answer kept for the next plain read of
            // the path must not answer the observer's (a reuse counts as a use).
            #expect(try await api.loadedState(id, "shelf").status == 200)
            #expect(try await api.get("\(base)/scenes/shelf").status == 200)
            #expect(try await api.get("\(base)/scenes/shelf/snapshot").status == 200)
            try await Task.sleep(for: .milliseconds(400))
            let observer = ["MVVM-Observer": "inspector"]
            for path in ["", "/scenes/shelf", "/scenes/shelf/snapshot", "/navigation", "/events", "/settled", "/journal"] {
                #expect(try await api.get(base + path, headers: observer).status == 200, "\(path)")
            }
            let observed = try await idleSeconds(of: id, api)
            #expect(observed >= 0.4)
            // The plain read's use comes after `readAt`: its idle time is at most the time since
            // then (give or take the server's whole milliseconds), however slowly this test runs,
            // where an idle time not reset would still count from before the observer's reads.
            let readAt = ContinuousClock.now
            #expect(try await api.get("\(base)/scenes/shelf").status == 200)
            let idle = try await idleSeconds(of: id, api)
            #expect(Duration.seconds(idle) <= ContinuousClock.now - readAt + .milliseconds(5))
            #expect(idle < observed)
        }
    }

    @Test("An observer's read never makes a view model: a scene not in the store answers 404, read, long-polled or streamed")
    func observersReadsMakeNothing() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            let base = "/sessions/\(id)"
            let observer = ["MVVM-Observer": "inspector"]
            for path in ["/scenes/shelf", "/scenes/shelf/snapshot", "/scenes/shelf?since=0&wait=1", "/scenes/shelf/snapshot?since=0&wait=1"] {
                APIClient.expectProblem(try await api.get(base + path, headers: observer), 404, "scene-not-found")
            }
            for path in ["/scenes/shelf", "/scenes/shelf/snapshot"] {
                APIClient.expectProblem(
                    try await api.get(base + path, headers: observer.merging(["Accept": "text/event-stream"]) { $1 }), 404, "scene-not-found")
            }
            let entries = try await api.get(base, headers: observer).json["entries"] as? [[String: Any]] ?? []
            #expect(entries.compactMap { $0["key"] as? String } == ["counter"], "only the root, made with the session")
            #expect(try await api.get("\(base)/scenes/shelf").status == 200)
            #expect(try await api.get("\(base)/scenes/shelf", headers: observer).status == 200)
            #expect(try await api.get("\(base)/scenes/shelf/snapshot", headers: observer).status == 200)
        }
    }

    @Test("A session read only by an observer expires after its idle timeout")
    func observedSessionExpires() async throws {
        try await APIClient.run(configure: {
            $0.testing = true
            $0.sessionIdleSeconds = 0.5
        }) { api in
            let id = try await api.createSession()
            #expect(try await api.get("/sessions/\(id)/scenes/shelf").status == 200)
            var status = 200
            let deadline = ContinuousClock.now + .seconds(10)
            while status == 200, ContinuousClock.now < deadline {
                status = try await api.get("/sessions/\(id)/scenes/shelf", headers: ["MVVM-Observer": "inspector"]).status
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(status == 410)
            #expect(try await api.metric("mvvm_sessions_expired_total") == 1)
        }
    }

    /// The idle time `GET /testing/sessions` gives for session `id`.
    private func idleSeconds(of id: String, _ api: APIClient) async throws -> Double {
        let sessions = try await api.get("/testing/sessions").json["sessions"] as? [[String: Any]] ?? []
        let session = try #require(sessions.first { $0["id"] as? String == id })
        return try #require(session["idleSeconds"] as? Double)
    }

    @Test("Without testing mode there is no inspector and no session list")
    func absentWithoutTestingMode() async throws {
        try await APIClient.run { api in
            for path in ["/inspector", "/inspector/inspector.js", "/inspector/inspector.css", "/testing/sessions"] {
                let answer = try await api.get(path)
                #expect(answer.status == 404, "\(path)")
            }
        }
    }
}
