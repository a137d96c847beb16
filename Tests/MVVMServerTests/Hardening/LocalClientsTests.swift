import Foundation
import ServerTestSupport
import TestSupport
import Testing

@testable import MVVMServer

/// The attacks of a web page on a server on loopback, tried over real HTTP: DNS rebinding (a
/// foreign `Host`) and cross-site requests (a foreign `Origin`).
@Suite("Only local clients get in")
struct LocalClientsTests {
    private static func start(allowedOrigins: [String] = [], allowedHosts: [String] = [], testing: Bool = false) async throws -> TestApplication {
        try await TestApplication(catalogue: ProbeApp.catalogue) {
            $0.http.allowedOrigins = allowedOrigins
            $0.http.allowedHosts = allowedHosts
            $0.testing = testing
        }
    }

    @Test("A foreign Host is refused (421, naming it and the setting) on every kind of route; IP literals and localhost are served")
    func foreignHost() async throws {
        let server = try await Self.start(testing: true)
        try await server.withSession { server, id in
            // A kept answer is not sent to a foreign host either: read once to keep it.
            #expect(try await server.request("GET", "/sessions/\(id)/scenes/probe").status == 200)
            for (method, path) in [
                ("POST", "/sessions"), ("GET", "/sessions/\(id)/scenes/probe"), ("GET", "/testing/sessions"),
                ("GET", "/health"), ("POST", "/testing/clock/advance"), ("GET", "/inspector"), ("GET", "/no/such/route"),
            ] {
                let answer = try await server.request(
                    method, path, headers: ["Host": "evil.example:\(server.port)"], body: method == "POST" ? Data("{}".utf8) : nil)
                #expect(answer.status == 421, "\(method) \(path)")
                #expect(answer.headers["content-type"] == "application/problem+json")
                #expect(answer.json["type"] as? String == "https://mvvmserver.dev/problems/host-not-allowed")
                #expect((answer.json["detail"] as? String)?.contains("evil.example") == true)
                #expect((answer.json["detail"] as? String)?.contains("--allowed-host") == true)
            }
            for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "[::1]:\(server.port)", "inspector.localhost", "127.0.0.1"] {
                #expect(try await server.request("GET", "/sessions/\(id)/scenes/probe", headers: ["Host": host]).status == 200, "\(host)")
            }
            // No session was made for the foreign host.
            let listed = try await server.request("GET", "/testing/sessions")
            #expect((listed.json["sessions"] as? [Any])?.count == 1)
        }
    }

    @Test("A host named with --allowed-host is served, and a *.name covers the names under it")
    func allowedHost() async throws {
        let server = try await Self.start(allowedHosts: ["app.example", "*.dev.test"])
        #expect(try await server.request("POST", "/sessions", headers: ["Host": "app.example:\(server.port)"]).status == 201)
        #expect(try await server.request("POST", "/sessions", headers: ["Host": "web.dev.test"]).status == 201)
        #expect(try await server.request("POST", "/sessions", headers: ["Host": "evil.example"]).status == 421)
        await server.stop()
    }

    @Test("An app whose code allows something that is not a host or an origin does not start, and says why")
    func invalidEntries() async throws {
        await #expect(throws: HTTPServerError.self) { _ = try await Self.start(allowedOrigins: ["*"]) }
        await #expect(throws: HTTPServerError.self) { _ = try await Self.start(allowedHosts: ["http://app.example"]) }
    }

    @Test("A cross-site POST (text/plain, a foreign Origin) is refused with 403 and changes nothing; the server's own origin is served")
    func foreignOrigin() async throws {
        let server = try await Self.start(testing: true)
        try await server.withSession { server, id in
            let own = "http://127.0.0.1:\(server.port)"
            let attack = try await server.request(
                "POST", "/sessions/\(id)/scenes/probe/input", headers: ["Origin": "http://evil.example", "Content-Type": "text/plain"],
                body: Data(#"{"text":"pwned"}"#.utf8))
            #expect(attack.status == 403)
            #expect(attack.json["type"] as? String == "https://mvvmserver.dev/problems/origin-not-allowed")
            #expect((attack.json["detail"] as? String)?.contains("--allowed-origin http://evil.example") == true)
            #expect(attack.headers["access-control-allow-origin"] == nil)
            let clock = try await server.request(
                "POST", "/testing/clock/advance", headers: ["Origin": "http://evil.example", "Content-Type": "text/plain"],
                body: Data(#"{"seconds":5}"#.utf8))
            #expect(clock.status == 403)
            #expect(try await server.request("GET", "/testing/clock").json["now"] as? Double == 0)
            #expect(try await server.request("POST", "/sessions", headers: ["Origin": "http://localhost:\(server.port)"]).status == 403)
            let state = try await server.request("GET", "/sessions/\(id)/scenes/probe")
            #expect((state.json["output"] as? [String: Any])?["echo"] as? String == "")
            // The page's own origin, as the inspector sends it, and a client with no Origin.
            let mine = try await server.json("POST", "/sessions/\(id)/scenes/probe/input", ["text": "mine"], headers: ["Origin": own])
            #expect(mine.status == 200)
            #expect(mine.headers["access-control-allow-origin"] == nil)
            #expect(
                try await server.request(
                    "POST", "/sessions/\(id)/scenes/probe/input",
                    headers: ["Origin": "http://localhost:\(server.port)", "Host": "localhost:\(server.port)"], body: Data(#"{"text":"local"}"#.utf8)
                ).status == 200)
            #expect(try await server.json("POST", "/sessions/\(id)/scenes/probe/input", ["text": "curl"]).status == 200)
        }
    }

    @Test("A configured origin gets a working preflight, CORS fields on its answers and its stream; others get none")
    func configuredOrigin() async throws {
        let page = "http://localhost:3000"
        let server = try await Self.start(allowedOrigins: [page])
        try await server.withSession { server, id in
            let preflight = try await server.request(
                "OPTIONS", "/sessions/\(id)/scenes/probe/input",
                headers: [
                    "Origin": page, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type",
                ])
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == page)
            #expect(preflight.headers["access-control-allow-methods"]?.contains("POST") == true)
            #expect(preflight.headers["access-control-allow-headers"] == "content-type")
            #expect(preflight.headers["access-control-max-age"] == "600")
            let foreignPreflight = try await server.request(
                "OPTIONS", "/sessions/\(id)/scenes/probe/input", headers: ["Origin": "http://evil.example", "Access-Control-Request-Method": "POST"])
            #expect(foreignPreflight.status == 403)
            #expect(foreignPreflight.headers["access-control-allow-origin"] == nil)

            let input = try await server.json("POST", "/sessions/\(id)/scenes/probe/input", ["text": "hi"], headers: ["Origin": page])
            #expect(input.status == 200)
            #expect(input.headers["access-control-allow-origin"] == page)
            #expect(input.headers["access-control-expose-headers"]?.contains("ETag") == true)
            #expect(input.headers["access-control-expose-headers"]?.contains("MVVM-Instance") == true)
            #expect(input.headers["access-control-expose-headers"]?.contains("Location") == true)
            // A read that a kept answer would serve gets its CORS fields too, and a plain read after it none.
            for _ in 0..<3 {
                let read = try await server.request("GET", "/sessions/\(id)/scenes/probe", headers: ["Origin": page])
                #expect(read.status == 200 && read.headers["access-control-allow-origin"] == page)
                let plain = try await server.request("GET", "/sessions/\(id)/scenes/probe")
                #expect(plain.status == 200 && plain.headers["access-control-allow-origin"] == nil)
            }
            let created = try await server.request("POST", "/sessions", headers: ["Origin": page])
            #expect(created.status == 201 && created.headers["access-control-allow-origin"] == page)
            // A refusal of the app reaches the page with its CORS fields, so that it can read why.
            let refused = try await server.request(
                "POST", "/sessions/\(id)/scenes/probe/input", headers: ["Origin": page], body: Data(#"{"colour":1}"#.utf8))
            #expect(refused.status == 422 && refused.headers["access-control-allow-origin"] == page)

            let stream = try await TestEventStream(port: server.port, path: "/sessions/\(id)/scenes/probe", headers: ["Origin": page])
            #expect(await stream.status == 200)
            #expect(await stream.headers["access-control-allow-origin"] == page)
            #expect(try await stream.next()?.event == "state")
            await stream.close()
            let foreignStream = try await TestEventStream(
                port: server.port, path: "/sessions/\(id)/scenes/probe", headers: ["Origin": "http://evil.example"])
            #expect(await foreignStream.status == 403)
            await foreignStream.close()
        }
    }

    @Test("A long-poll answered later (parked) from a configured origin carries the CORS fields")
    func parkedCrossOrigin() async throws {
        let page = "http://localhost:3000"
        let server = try await Self.start(allowedOrigins: [page])
        try await server.withSession { server, id in
            let first = try await server.request("GET", "/sessions/\(id)/scenes/probe")
            let version = first.json["version"] as? Int ?? 0
            async let parked = server.request("GET", "/sessions/\(id)/scenes/probe?since=\(version)&wait=10", headers: ["Origin": page])
            try await server.waitUntilParked()
            #expect(try await server.json("POST", "/sessions/\(id)/scenes/probe/input", ["text": "later"]).status == 200)
            let answer = try await parked
            #expect(answer.status == 200)
            #expect((answer.json["output"] as? [String: Any])?["echo"] as? String == "later")
            #expect(answer.headers["access-control-allow-origin"] == page)
        }
    }
}
