import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import TestSupport
import Testing

@Suite("Long-polls over HTTP")
struct LongPollAPITests {
    @Test("A long-poll is woken by an input sent on another connection")
    func wokenByInput() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let version = try #require(try await api.loadedState(id, "counter").documentVersion)
            let started = ContinuousClock.now
            async let woken = api.get("/sessions/\(id)/scenes/counter?since=\(version)&wait=30", timeout: 40)
            try await api.waitUntilParked(1)

            let input = try await api.post("/sessions/\(id)/scenes/counter/input", ["name": "Ada"])
            let response = try await woken
            #expect(response.status == 200)
            #expect(response.headers["cache-control"] == "no-store")
            #expect(response.documentVersion == input.documentVersion)
            #expect(try #require(response.documentVersion) > version)
            #expect((response.json["input"] as? [String: Any])?["name"] as? String == "Ada")
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test("A long-poll whose wait runs out answers 200 with the same version")
    func timesOut() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let state = try await api.loadedState(id, "counter")
            let version = try #require(state.documentVersion)
            let started = ContinuousClock.now
            let response = try await api.get("/sessions/\(id)/scenes/counter?since=\(version)&wait=0.5")
            #expect(ContinuousClock.now - started >= .milliseconds(500))
            #expect(response.status == 200)
            #expect(response.documentVersion == version)
            #expect(response.text == state.text)
            #expect(response.headers["etag"] == "\"\(version)\"")
            #expect(try await api.metric("mvvm_long_polls_expired_total") == 1)
            #expect(try await api.metric("mvvm_parked_requests") == 0)
        }
    }

    @Test("A wait longer than the server's maximum is cut to it")
    func waitIsCapped() async throws {
        try await APIClient.run(configure: { $0.maxWaitSeconds = 0.3 }) { api in
            let id = try await api.createSession()
            let version = try #require(try await api.loadedState(id, "counter").documentVersion)
            let started = ContinuousClock.now
            let response = try await api.get("/sessions/\(id)/scenes/counter?since=\(version)&wait=60", timeout: 70)
            let elapsed = ContinuousClock.now - started
            #expect(response.status == 200)
            #expect(response.documentVersion == version)
            #expect(elapsed >= .milliseconds(300))
            #expect(elapsed < .seconds(30))
        }
    }

    @Test("A hundred long-polls parked on one view model are all woken by one change")
    func hundredWokenByOneChange() async throws {
        try await APIClient.run(configure: { $0.maxParkedPerSession = 200 }) { api in
            let id = try await api.createSession()
            let version = try #require(try await api.loadedState(id, "counter").documentVersion)
            try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await api.get("/sessions/\(id)/scenes/counter?since=\(version)&wait=30", timeout: 40) }
                }
                try await api.waitUntilParked(100)
                let change = try await api.post("/sessions/\(id)/scenes/counter/actions/increment", raw: nil)
                let changed = try #require(change.documentVersion)
                var answered = 0
                for try await response in group {
                    answered += 1
                    #expect(response.status == 200)
                    #expect(response.documentVersion == changed)
                    #expect((response.json["output"] as? [String: Any])?["count"] as? Int == 1)
                }
                #expect(answered == 100)
            }
            #expect(try await api.metric("mvvm_parked_requests") == 0)
            #expect(try await api.metric("mvvm_long_polls_expired_total") == 0)
        }
    }

    @Test("A version ahead of the current one, or behind it, is answered at once")
    func answeredAtOnce() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let version = try #require(try await api.loadedState(id, "counter").documentVersion)
            let started = ContinuousClock.now
            let ahead = try await api.get("/sessions/\(id)/scenes/counter?since=\(version + 1000)&wait=30", timeout: 40)
            #expect(ahead.status == 200)
            #expect(ahead.documentVersion == version)
            let behind = try await api.get("/sessions/\(id)/scenes/counter?since=\(version - 1)&wait=30", timeout: 40)
            #expect(behind.documentVersion == version)
            let navigation = try #require(try await api.get("/sessions/\(id)/navigation").documentVersion)
            let navigationAhead = try await api.get("/sessions/\(id)/navigation?since=\(navigation + 1000)&wait=30", timeout: 40)
            #expect(navigationAhead.documentVersion == navigation)
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test("A long-poll on a scene that is loading is woken when its load finishes")
    func wokenByLoad() async throws {
        var dependencies = DependencyValues()
        let gate = APIFixtures.LoadGate()
        dependencies.loadGate = gate
        try await APIClient.run(dependencies: dependencies) { api in
            let id = try await api.createSession()
            var state = try await api.get("/sessions/\(id)/scenes/slow")
            #expect(state.json["lifecycle"] as? String == "setuped")
            if let version = state.documentVersion {
                state = try await api.get("/sessions/\(id)/scenes/slow?since=\(version)&wait=10", timeout: 20)
            }
            #expect(state.json["lifecycle"] as? String == "loading")
            #expect((state.json["output"] as? [String: Any])?["ready"] as? Bool == false)

            let loading = try #require(state.documentVersion)
            async let woken = api.get("/sessions/\(id)/scenes/slow?since=\(loading)&wait=30", timeout: 40)
            try await api.waitUntilParked(1)
            gate.open()
            let loaded = try await woken
            #expect(loaded.json["lifecycle"] as? String == "loaded")
            #expect((loaded.json["output"] as? [String: Any])?["ready"] as? Bool == true)
            #expect(try #require(loaded.documentVersion) > loading)
        }
    }

    @Test("Past the cap of parked requests per session, a long-poll answers 503 with Retry-After")
    func parkedCap() async throws {
        try await APIClient.run(configure: { $0.maxParkedPerSession = 1 }) { api in
            let id = try await api.createSession()
            let version = try #require(try await api.loadedState(id, "counter").documentVersion)
            let path = "/sessions/\(id)/scenes/counter?since=\(version)&wait=30"
            async let first = api.get(path, timeout: 40)
            try await api.waitUntilParked(1)

            let refused = try await api.get(path)
            APIClient.expectProblem(refused, 503, "capacity-reached")
            #expect(refused.headers["retry-after"] == "1")
            let other = try await api.createSession()
            let otherVersion = try #require(try await api.get("/sessions/\(other)/navigation").documentVersion)
            let otherSession = try await api.get("/sessions/\(other)/navigation?since=\(otherVersion)&wait=0.2")
            #expect(otherSession.status == 200)

            _ = try await api.post("/sessions/\(id)/scenes/counter/input", ["name": "Ada"])
            #expect(try await first.status == 200)
            #expect(try await api.get(path).status == 200)
        }
    }

    @Test(
        "A malformed since or wait answers 400 naming the parameter, on every versioned GET",
        arguments: [
            ("since=abc", "since"), ("since=-1", "since"), ("since=1.5", "since"), ("since=", "since"),
            ("since=18446744073709551616", "since"), ("since=9223372036854775808", "since"), ("wait=abc", "wait"), ("wait=-1", "wait"),
            ("wait=1e3", "wait"),
        ])
    func invalidParameters(query: String, member: String) async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            for path in ["scenes/counter", "scenes/shelf/snapshot", "navigation", "events"] {
                APIClient.expectProblem(try await api.get("/sessions/\(id)/\(path)?\(query)"), 400, "invalid-parameter", member: member)
            }
        }
    }
}
