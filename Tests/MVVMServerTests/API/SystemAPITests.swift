import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import ServerTestSupport
import TestSupport
import Testing

@Suite("The catalogue, health and metrics over HTTP")
struct SystemAPITests {
    @Test("GET /scenes lists every scene with its key pattern, input, actions, slots, whether it has a snapshot, and its schemas in the contract")
    func catalogue() async throws {
        try await APIClient.run { api in
            let response = try await api.get("/scenes")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.json["root"] as? String == "counter")
            let scenes = try #require(response.json["scenes"] as? [[String: Any]])
            #expect(scenes.map { $0["name"] as? String } == ["counter", "detail", "shelf", "slow", "timed"])
            let counter = try #require(scenes.first)
            #expect(counter["keyPattern"] as? String == "counter")
            #expect(counter["input"] as? [String] == ["name", "step"])
            #expect(counter["actions"] as? [String] == ["increment", "add", "open"])
            #expect(counter["slots"] as? [String] == [])
            #expect(counter["snapshot"] as? Bool == false)
            #expect(scenes[1]["keyPattern"] as? String == "detail/{id}")
            #expect(scenes[2]["snapshot"] as? Bool == true)
            // Each scene links to its schemas in the app's contract, and each link resolves.
            let contract = try #require(counter["contract"] as? [String: Any])
            #expect(contract["state"] as? String == "/openapi.json#/components/schemas/Scene-counter-State")
            #expect(contract["input"] as? String == "/openapi.json#/components/schemas/Scene-counter-InputPatch")
            #expect((contract["actions"] as? [String: String])?["add"] == "/openapi.json#/components/schemas/Scene-counter-Action-add")
            let components = try #require((try await api.get("/openapi.json").json["components"] as? [String: Any])?["schemas"] as? [String: Any])
            for scene in scenes {
                let links = try #require(scene["contract"] as? [String: Any])
                let all =
                    [links["state"], links["input"], links["snapshot"]].compactMap { $0 as? String }
                    + ((links["actions"] as? [String: String]) ?? [:]).values
                for link in all {
                    #expect(components[String(link.split(separator: "/").last ?? "")] != nil, "\(link)")
                }
            }
        }
    }

    @Test("GET / answers an index: links to the catalogue, the contract, health and metrics, and how to create a session")
    func index() async throws {
        try await APIClient.run { api in
            let response = try await api.get("/")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.json["name"] as? String == "MVVMServer")
            #expect(response.json["version"] as? String == "0.1.0")
            let links = try #require(response.json["links"] as? [String: String])
            #expect(
                links == ["scenes": "/scenes", "openapi": "/openapi.yaml", "contract": "/openapi.json", "health": "/health", "metrics": "/metrics"])
            for (_, path) in links {
                #expect(try await api.get(path).status == 200, "\(path) is served")
            }
            let create = try #require(response.json["createSession"] as? [String: String])
            #expect(create["method"] == "POST" && create["href"] == "/sessions")
            #expect(try await api.app.request(create["method"] ?? "", create["href"] ?? "").status == 201, "following the index creates a session")
        }
    }

    @Test("GET /health answers ok, the version, the uptime and the number of sessions")
    func health() async throws {
        try await APIClient.run { api in
            _ = try await api.createSession()
            let response = try await api.get("/health")
            #expect(response.status == 200)
            #expect(response.json["status"] as? String == "ok")
            #expect(response.json["version"] as? String == "0.1.0")
            #expect(response.json["uptimeSeconds"] is NSNumber)
            #expect(response.json["sessions"] as? Int == 1)
        }
    }

    @Test("GET /metrics answers the Prometheus text with the live sessions and the requests by route")
    func metrics() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            for _ in 0..<3 {
                #expect(try await api.get("/sessions/\(id)/scenes/counter").status == 200)
            }
            #expect(try await api.get("/sessions/\(id)/scenes/nowhere").status == 404)
            #expect(try await api.get("/nowhere").status == 404)
            let response = try await api.get("/metrics")
            #expect(response.status == 200)
            #expect(response.headers["content-type"]?.hasPrefix("text/plain") == true)
            let lines = response.text.split(separator: "\n").map(String.init)
            #expect(lines.contains("# TYPE mvvm_sessions_live gauge"))
            #expect(lines.contains("mvvm_sessions_live 1.0"))
            #expect(lines.contains("mvvm_sessions_created_total 1"))
            #expect(lines.contains("mvvm_parked_requests 0.0"))
            #expect(lines.contains { $0.hasPrefix(#"mvvm_context_calls_total{thread="polling"} "#) })
            #expect(lines.contains(#"mvvm_requests_total{method="POST",route="/sessions",status="201"} 1"#))
            // Reads answered from kept answers count under their route as the first did.
            #expect(lines.contains(#"mvvm_requests_total{method="GET",route="/sessions/{id}/scenes/{key...}",status="200"} 3"#))
            #expect(lines.contains(#"mvvm_requests_total{method="GET",route="/sessions/{id}/scenes/{key...}",status="404"} 1"#))
            #expect(lines.contains(#"mvvm_requests_total{method="any",route="unmatched",status="404"} 1"#))
            // Each route and status is timed: a histogram in seconds, counting every answer.
            #expect(lines.contains("# TYPE mvvm_request_duration_seconds histogram"))
            #expect(lines.contains(#"mvvm_request_duration_seconds_count{method="GET",route="/sessions/{id}/scenes/{key...}",status="200"} 3"#))
            #expect(
                lines.contains(#"mvvm_request_duration_seconds_bucket{method="GET",route="/sessions/{id}/scenes/{key...}",status="200",le="+Inf"} 3"#)
            )
        }
    }

    @Test("Every answer is counted once at /metrics, also past the polling threads' batches, with requests on many connections at once")
    func metricsCountEveryAnswerOfManyConnections() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            #expect(try await api.get("/sessions/\(id)/scenes/counter").status == 200)
            // More answers than a polling thread's batch (64), from 8 connections, so that both
            // polling threads count some and add whole batches.
            let inputs = 301
            try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var statuses = 0
                        for index in stride(from: worker, to: inputs, by: 8) {
                            statuses += try await api.post("/sessions/\(id)/scenes/counter/input", ["name": "n\(index)"]).status
                        }
                        return statuses
                    }
                }
                var sum = 0
                for try await statuses in group { sum += statuses }
                #expect(sum == 200 * inputs)
            }
            let lines = try await api.get("/metrics").text.split(separator: "\n").map(String.init)
            #expect(lines.contains(#"mvvm_requests_total{method="POST",route="/sessions/{id}/scenes/{key...}/input",status="200"} \#(inputs)"#))
            #expect(
                lines.contains(
                    #"mvvm_request_duration_seconds_count{method="POST",route="/sessions/{id}/scenes/{key...}/input",status="200"} \#(inputs)"#))
            let contextCalls = lines.filter { $0.hasPrefix("mvvm_context_calls_total{") }.compactMap {
                $0.split(separator: " ").last.flatMap { Int($0) }
            }
            // The first read made the scene (one call), then one call per input.
            #expect(contextCalls.reduce(0, +) == inputs + 1)
            // A second export counts nothing twice.
            let again = try await api.get("/metrics").text.split(separator: "\n").map(String.init)
            #expect(again.contains(#"mvvm_requests_total{method="POST",route="/sessions/{id}/scenes/{key...}/input",status="200"} \#(inputs)"#))
        }
    }

    @Test("At debug level each request's log line carries its route pattern, status, duration and the session shortened")
    func requestLogMetadata() async throws {
        let lines = CapturedLogLines()
        var logger = Logger(label: "api-test") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .debug
        let server = try await TestApplication(catalogue: APIFixtures.catalogue(), logger: logger)
        let id = try await server.createSession()
        #expect(try await server.request("GET", "/sessions/\(id)/scenes/counter").status == 200)
        await server.stop()
        let read = try #require(lines.all.first { $0.message == "answered" && $0.metadata["method"] == "GET" })
        #expect(read.metadata["route"] == "/sessions/{id}/scenes/{key...}")
        #expect(read.metadata["status"] == "200")
        #expect(read.metadata["session"] == String(id.prefix(4)) + "…")
        #expect(read.metadata["path"] == "/sessions/\(id.prefix(4))…/scenes/counter")
        #expect(read.metadata["duration_ms"].flatMap { Double($0) } != nil)
        #expect(
            !lines.all.contains { line in line.metadata.values.contains { $0.contains(id) } || line.message.contains(id) },
            "the session id is never logged in full")
    }
}
