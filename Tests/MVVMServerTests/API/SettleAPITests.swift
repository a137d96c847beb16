import Foundation
import MVVMCore
import MVVMServer
import TestSupport
import Testing

/// `GET /sessions/{id}/settled`: waits until no load, action or view-model task of the session
/// runs, over real HTTP.
@Suite("Settling over HTTP", .timeLimit(.minutes(1)))
struct SettleAPITests {
    /// The versions of a settled answer: the navigation's, and each scene's by key.
    private static func versions(_ response: TestResponse) -> (navigation: Int?, scenes: [String: Int]) {
        let versions = response.json["versions"] as? [String: Any]
        return (versions?["navigation"] as? Int, versions?["scenes"] as? [String: Int] ?? [:])
    }

    @Test("A session whose scenes have loaded is settled at once, with the versions of its documents")
    func settledAtOnce() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let state = try await api.loadedState(id, "counter")
            let navigation = try await api.get("/sessions/\(id)/navigation")
            let settled = try await api.get("/sessions/\(id)/settled")
            #expect(settled.status == 200)
            #expect(settled.json["settled"] as? Bool == true)
            let versions = Self.versions(settled)
            #expect(versions.navigation == navigation.json["version"] as? Int)
            #expect(versions.scenes["counter"] == state.json["version"] as? Int)
        }
    }

    @Test("A load still waiting is work running: not settled by the wait's end, settled once it finishes")
    func loadIsWork() async throws {
        let gate = APIFixtures.LoadGate()
        var dependencies = DependencyValues()
        dependencies.loadGate = gate
        try await APIClient.run(dependencies: dependencies) { api in
            let id = try await api.createSession()
            _ = try await api.loadedState(id, "counter")
            #expect(try await api.get("/sessions/\(id)/scenes/slow").json["lifecycle"] as? String != "loaded")
            let unsettled = try await api.get("/sessions/\(id)/settled?wait=0.3")
            #expect(unsettled.status == 200)
            #expect(unsettled.json["settled"] as? Bool == false)
            #expect(unsettled.json["waitingForClock"] as? Bool == false, "no test clock outside testing mode")
            #expect(Self.versions(unsettled).scenes["slow"] != nil)

            async let waiting = api.get("/sessions/\(id)/settled?wait=20")
            try await api.waitUntilParked(1)
            gate.open()
            let settled = try await waiting
            #expect(settled.json["settled"] as? Bool == true)
            let state = try await api.get("/sessions/\(id)/scenes/slow")
            #expect(state.json["lifecycle"] as? String == "loaded")
            #expect(Self.versions(settled).scenes["slow"] == state.json["version"] as? Int, "the answer holds the version the load ended at")
        }
    }

    @Test("In testing mode, work waiting on the test clock is running: unsettled, saying it waits for the clock, then settled once the clock moves")
    func waitingForTheTestClock() async throws {
        try await APIClient.run(configure: { $0.testing = true }) { api in
            let id = try await api.createSession()
            _ = try await api.get("/sessions/\(id)/scenes/timed")
            let unsettled = try await api.get("/sessions/\(id)/settled?wait=0.3")
            #expect(unsettled.json["settled"] as? Bool == false)
            #expect(unsettled.json["waitingForClock"] as? Bool == true, "\(unsettled.text)")
            #expect(try await api.post("/testing/clock/advance", ["seconds": 30]).status == 200)
            let settled = try await api.get("/sessions/\(id)/settled?wait=10")
            #expect(settled.json["settled"] as? Bool == true)
            #expect(settled.json["waitingForClock"] as? Bool == false)
        }
    }

    @Test("A task a view model launched is work running until it ends")
    func launchedTaskIsWork() async throws {
        let taskGate = APIFixtures.LoadGate()
        var dependencies = DependencyValues()
        dependencies.taskGate = taskGate
        try await APIClient.run(dependencies: dependencies) { api in
            let id = try await api.createSession()
            _ = try await api.loadedState(id, "slow")
            #expect(try await api.post("/sessions/\(id)/scenes/slow/actions/launchWait", [:]).status == 200)
            #expect(try await api.get("/sessions/\(id)/settled?wait=0.3").json["settled"] as? Bool == false)
            async let waiting = api.get("/sessions/\(id)/settled?wait=20")
            try await api.waitUntilParked(1)
            taskGate.open()
            #expect(try await waiting.json["settled"] as? Bool == true)
            let output = try await api.get("/sessions/\(id)/scenes/slow").json["output"] as? [String: Any]
            #expect(output?["ready"] as? Bool == true, "the task's change is published by the time the session is settled")
        }
    }

    @Test("A bad wait is a 400 naming it; an unknown session a 404; a deleted one a 410")
    func refusals() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            APIClient.expectProblem(try await api.get("/sessions/\(id)/settled?wait=-1"), 400, "invalid-parameter", member: "wait")
            APIClient.expectProblem(try await api.get("/sessions/\(id)/settled?wait=soon"), 400, "invalid-parameter", member: "wait")
            APIClient.expectProblem(try await api.get("/sessions/abc/settled"), 404, "session-not-found")
            #expect(try await api.delete("/sessions/\(id)").status == 204)
            APIClient.expectProblem(try await api.get("/sessions/\(id)/settled"), 410, "session-gone")
        }
    }
}
