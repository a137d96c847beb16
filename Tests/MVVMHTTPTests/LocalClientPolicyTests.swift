import Testing

@testable import MVVMHTTP

@Suite("Which hosts and origins a local server answers")
struct LocalClientPolicyTests {
    private let plain = try! LocalClientPolicy(allowedHosts: [], allowedOrigins: [])

    @Test("IP literals, localhost and names under .localhost are answered with any port, and no other name")
    func defaultHosts() {
        for host in [
            "127.0.0.1", "127.0.0.1:8080", "10.1.2.3:80", "0.0.0.0", "[::1]", "[::1]:8080", "[::ffff:127.0.0.1]:1",
            "localhost", "LOCALHOST:3000", "app.localhost", "a.b.localhost:9", "localhost:",
        ] {
            #expect(plain.allows(host: host), "\(host)")
        }
        for host in [
            "evil.example", "evil.example:8080", "localhost.evil.example", "evillocalhost", ".localhost", "localhost.",
            "127.0.0.1.evil.example", "256.0.0.1", "127.0.0", "1.2.3.4.5", "2130706433", "[::1", "[::1]x", "[evil]",
            "127.0.0.1:80a", "", "0x7f.0.0.1",
        ] {
            #expect(!plain.allows(host: host), "\(host)")
        }
    }

    @Test("A configured name, *.name and * widen the hosts answered")
    func configuredHosts() throws {
        let policy = try LocalClientPolicy(allowedHosts: ["App.Example", "*.dev.test"], allowedOrigins: [])
        #expect(policy.allows(host: "app.example:8080"))
        #expect(policy.allows(host: "one.dev.test"))
        #expect(!policy.allows(host: "dev.test"))
        #expect(!policy.allows(host: "other.example"))
        #expect(try LocalClientPolicy(allowedHosts: ["*"], allowedOrigins: []).allows(host: "anything.example"))
        #expect(throws: LocalClientPolicy.Refusal(kind: .host, entry: "http://x")) {
            try LocalClientPolicy(allowedHosts: ["http://x"], allowedOrigins: [])
        }
        #expect(throws: LocalClientPolicy.Refusal(kind: .origin, entry: "*")) { try LocalClientPolicy(allowedHosts: [], allowedOrigins: ["*"]) }
    }

    @Test("Origins are normalized as browsers send them; *, null and paths are not origins")
    func origins() {
        #expect(LocalClientPolicy.normalizedOrigin("HTTP://LocalHost:3000/") == "http://localhost:3000")
        #expect(LocalClientPolicy.normalizedOrigin("https://app.example") == "https://app.example")
        #expect(LocalClientPolicy.normalizedOrigin("http://[::1]:5173") == "http://[::1]:5173")
        for wrong in ["*", "null", "localhost:3000", "ftp://x", "http://", "http://x/path", "http://x:y"] {
            #expect(LocalClientPolicy.normalizedOrigin(wrong) == nil, "\(wrong)")
        }
    }

    @Test("A foreign host is refused with 421 naming it and the setting; a foreign origin with 403")
    func refusals() throws {
        guard case .refused(let host) = plain.verdict(method: "GET", host: "evil.example:8080", origin: nil) else {
            Issue.record("served")
            return
        }
        #expect(host.kind.status == 421)
        #expect(host.detail.contains("evil.example:8080") && host.detail.contains("--allowed-host"))
        guard case .refused(let origin) = plain.verdict(method: "POST", host: "127.0.0.1:8080", origin: "http://evil.example") else {
            Issue.record("served")
            return
        }
        #expect(origin.kind.status == 403)
        #expect(origin.detail.contains("http://evil.example") && origin.detail.contains("--allowed-origin"))
        // The page's own origin is served; so is one on the same host with another port only when named.
        guard case .sameOrigin = plain.verdict(method: "POST", host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080") else {
            Issue.record("refused")
            return
        }
        guard case .refused = plain.verdict(method: "POST", host: "127.0.0.1:8080", origin: "http://127.0.0.1:3000") else {
            Issue.record("served")
            return
        }
        guard case .refused = plain.verdict(method: "POST", host: "127.0.0.1:8080", origin: "null") else {
            Issue.record("served")
            return
        }
    }

    @Test("A configured origin gets its preflight answered and its answers marked for CORS, never with *")
    func configuredOrigin() throws {
        let policy = try LocalClientPolicy(allowedHosts: [], allowedOrigins: ["http://localhost:3000"])
        guard case .crossOrigin("http://localhost:3000") = policy.verdict(method: "GET", host: "127.0.0.1:8080", origin: "http://localhost:3000")
        else {
            Issue.record("not cross-origin")
            return
        }
        guard
            case .preflight(let answer) = policy.verdict(
                method: "OPTIONS", host: "127.0.0.1:8080", origin: "http://localhost:3000", requestedMethod: "POST", requestedFields: "content-type")
        else {
            Issue.record("no preflight")
            return
        }
        #expect(answer.status == 204)
        #expect(answer.header("Access-Control-Allow-Origin") == "http://localhost:3000")
        #expect(answer.header("Access-Control-Allow-Methods")?.contains("POST") == true)
        #expect(answer.header("Access-Control-Allow-Headers") == "content-type")
        #expect(answer.header("Access-Control-Max-Age") == "600")
        let fields = LocalClientPolicy.crossOriginFields(for: "http://localhost:3000")
        #expect(
            fields.contains {
                $0.name == "Access-Control-Expose-Headers" && $0.value.contains("ETag") && $0.value.contains("MVVM-Instance")
                    && $0.value.contains("Location")
            })
        #expect(!fields.contains { $0.value == "*" })
    }
}
