import Foundation
import Logging
import MVVMCore
import MVVMServer
import TestSupport
import Testing

/// Testing mode's clock over real HTTP: `GET /testing/clock` and `POST /testing/clock/advance`.
@Suite("The test clock of testing mode, over HTTP", .timeLimit(.minutes(1)))
struct TestClockAPITests {
    private static func testing(_ configuration: inout ApplicationConfiguration) {
        configuration.testing = true
    }

    private static func advance(_ api: APIClient, _ seconds: Double) async throws -> TestResponse {
        let response = try await api.post("/testing/clock/advance", ["seconds": seconds])
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json["settled"] as? Bool == true, "\(response.text)")
        return response
    }

    private static func output(_ api: APIClient, _ id: String) async throws -> [String: Any] {
        try await api.get("/sessions/\(id)/scenes/timed").json["output"] as? [String: Any] ?? [:]
    }

    @Test("Without testing mode the clock's routes do not exist")
    func absentWithoutTestingMode() async throws {
        try await APIClient.run { api in
            let clock = try await api.get("/testing/clock")
            let advance = try await api.post("/testing/clock/advance", ["seconds": 1])
            #expect(clock.status == 404)
            #expect(advance.status == 404)
        }
    }

    @Test("A load waiting 30 s of the clock stays loading until the clock has moved 30 s, and is loaded when that advance answers")
    func loadWaitsForTheClock() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let start = try await api.get("/testing/clock")
            #expect(start.status == 200)
            #expect(start.json["now"] as? Double == 0)
            #expect(start.json["waiting"] as? Int == 0)
            let id = try await api.createSession()
            _ = try await api.get("/sessions/\(id)/scenes/timed")
            let quiet = try await Self.advance(api, 0)
            #expect(try await api.get("/sessions/\(id)/scenes/timed").json["lifecycle"] as? String == "loading")
            #expect(quiet.json["waiting"] as? Int == 1)
            #expect(quiet.json["nextDeadline"] as? Double == 30)
            #expect(
                try await api.get("/sessions/\(id)/settled?wait=0.2").json["settled"] as? Bool == false, "a load waiting on the clock is work running"
            )

            let early = try await Self.advance(api, 29.5)
            #expect(early.json["now"] as? Double == 29.5)
            #expect(try await api.get("/sessions/\(id)/scenes/timed").json["lifecycle"] as? String == "loading")

            let due = try await Self.advance(api, 0.5)
            #expect(due.json["now"] as? Double == 30)
            #expect(due.json["waiting"] as? Int == 0)
            #expect(due.json["nextDeadline"] == nil)
            let state = try await api.get("/sessions/\(id)/scenes/timed")
            #expect(state.json["lifecycle"] as? String == "loaded", "loaded by the time the advance answers")
            #expect((state.json["output"] as? [String: Any])?["loaded"] as? Bool == true)
            #expect(try await api.get("/sessions/\(id)/settled").json["settled"] as? Bool == true)
        }
    }

    @Test("One advance wakes a chain of waits in turn: each wait that comes due within it, even one begun during it")
    func chainedWaits() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            _ = try await api.get("/sessions/\(id)/scenes/timed")
            _ = try await Self.advance(api, 30)
            #expect(try await api.post("/sessions/\(id)/scenes/timed/actions/chain", [:]).status == 200)
            _ = try await Self.advance(api, 25)
            #expect(try await Self.output(api, id)["ticks"] as? Int == 2, "the waits due at 10 s and 20 s ended; the one due at 30 s waits")
            let last = try await Self.advance(api, 5)
            #expect(last.json["now"] as? Double == 60)
            #expect(try await Self.output(api, id)["ticks"] as? Int == 3)
        }
    }

    @Test("An advance answers only once the child tasks of a view model's task have run: work that does not wait on the clock ends first")
    func childTasksAreCounted() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            let id = try await api.createSession()
            _ = try await api.get("/sessions/\(id)/scenes/timed")
            _ = try await Self.advance(api, 30)
            #expect(try await api.post("/sessions/\(id)/scenes/timed/actions/race", [:]).status == 200)
            let answer = try await Self.advance(api, 0)
            #expect(try await Self.output(api, id)["winner"] as? String == "work")
            #expect(answer.json["waiting"] as? Int == 0, "the losing wait was cancelled, and left the clock")
        }
    }

    @Test("A missing, negative, non-numeric or unknown member is a 422 naming it; a bad wait a 400; nothing moves")
    func refusals() async throws {
        try await APIClient.run(configure: Self.testing) { api in
            APIClient.expectProblem(try await api.post("/testing/clock/advance", [:]), 422, "invalid-arguments", member: "seconds")
            APIClient.expectProblem(try await api.post("/testing/clock/advance", ["seconds": -1]), 422, "invalid-arguments", member: "seconds")
            APIClient.expectProblem(try await api.post("/testing/clock/advance", ["seconds": "5"]), 422, "invalid-arguments", member: "seconds")
            APIClient.expectProblem(try await api.post("/testing/clock/advance", ["seconds": 1e300]), 422, "invalid-arguments", member: "seconds")
            APIClient.expectProblem(
                try await api.post("/testing/clock/advance", ["seconds": 1, "minutes": 2]), 422, "invalid-arguments", member: "minutes")
            APIClient.expectProblem(try await api.post("/testing/clock/advance", raw: "{\"seconds\": "), 400, "malformed-json")
            APIClient.expectProblem(try await api.post("/testing/clock/advance?wait=soon", ["seconds": 1]), 400, "invalid-parameter", member: "wait")
            #expect(try await api.get("/testing/clock").json["now"] as? Double == 0)
            let furthest = try await api.post("/testing/clock/advance", ["seconds": 31_536_000_000])
            #expect(furthest.status == 200, "a thousand years is a move the clock can make")
            #expect(furthest.json["now"] as? Double == 31_536_000_000)
        }
    }

    @Test("Testing mode refuses a host that is not loopback: a flag names it, and so does a configuration made in code")
    func loopbackOnly() async throws {
        for host in ["0.0.0.0", "192.168.1.10"] {
            let options = try ServerOptions.parse(["--testing", "--host", host])
            #expect {
                _ = try options.configuration(appName: "app", environment: [:])
            } throws: { error in
                let text = "\(error)"
                return text.contains("testing mode") && text.contains(host)
            }
        }
        let fromEnvironment = try ServerOptions.parse(["--host", "0.0.0.0"])
        #expect(throws: (any Error).self) { _ = try fromEnvironment.configuration(appName: "app", environment: ["MVVM_TESTING": "1"]) }
        for host in ["127.0.0.1", "127.0.0.2", "localhost"] {
            let configuration = try ServerOptions.parse(["--testing", "--host", host]).configuration(appName: "app", environment: [:])
            #expect(configuration.testing)
        }

        var configuration = ApplicationConfiguration()
        configuration.testing = true
        configuration.http.host = "0.0.0.0"
        configuration.http.port = 0
        let app = Application(configuration: configuration, catalogue: APIFixtures.catalogue(), logger: Logger(label: "test"))
        await #expect {
            try await app.run()
        } throws: { error in
            let text = "\(error)"
            return error is ConfigurationError && text.contains("testing mode") && text.contains("0.0.0.0")
        }
    }
}
