import Foundation
import MVVMSupport
import Synchronization
import TestSupport
import Testing

@testable import MVVMCore
@testable import MVVMHTTP
@testable import MVVMJSON
@testable import MVVMServer

/// Answers marked reusable (`Responder.answer(_:reusableWhile:)`), over real loopback HTTP.
/// One polling thread, so that every request reads the same thread's kept answers.
@Suite("Reused answers, over real loopback HTTP")
struct ReusedAnswerTests {
    private static func harness(excluding exclusions: ReuseExclusions = ReuseExclusions()) throws -> RuntimeHarness {
        try RuntimeHarness {
            $0.threads = 1
            $0.reuseExclusions = exclusions
        }
    }

    @Test("A reusable answer is sent again without its handler while it holds, and made anew once it no longer does")
    func reusedWhileCurrent() async throws {
        let harness = try Self.harness()
        defer { harness.stop() }
        let counts = harness.reusable
        var bodies: [String] = []
        for _ in 0..<3 {
            let response = try await TestHTTPClient.request(port: harness.port, "GET", "/reusable/a")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            bodies.append(response.text)
        }
        #expect(Set(bodies).count == 1)
        #expect(bodies.first?.contains("\"generation\":\"0\"") == true)
        #expect(counts.calls.load(ordering: .relaxed) == 1)
        #expect(counts.checks.load(ordering: .relaxed) == 2)

        counts.generation.store(1, ordering: .relaxed)
        let renewed = try await TestHTTPClient.request(port: harness.port, "GET", "/reusable/a")
        #expect(renewed.status == 200)
        #expect(renewed.json["generation"] as? String == "1")
        #expect(counts.calls.load(ordering: .relaxed) == 2)
        let again = try await TestHTTPClient.request(port: harness.port, "GET", "/reusable/a")
        #expect(again.text == renewed.text)
        #expect(counts.calls.load(ordering: .relaxed) == 2)
    }

    @Test("A request with a query, an excluded field or a body, or another method, or another path, reaches its handler")
    func onlyPlainReadsOfTheSamePath() async throws {
        let harness = try Self.harness(excluding: ReuseExclusions(fields: ["If-None-Match"]))
        defer { harness.stop() }
        let counts = harness.reusable
        let port = harness.port
        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a").status == 200)
        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a").status == 200)
        #expect(counts.calls.load(ordering: .relaxed) == 1)

        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a?x=1").status == 200)
        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a?").status == 200)
        #expect(counts.calls.load(ordering: .relaxed) == 2, "a bare '?' has no arguments: the kept answer serves it")
        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a", headers: ["If-None-Match": "\"1\""]).status == 200)
        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a", body: Data("x".utf8)).status == 200)
        #expect(counts.calls.load(ordering: .relaxed) == 4)
        #expect(try await TestHTTPClient.request(port: port, "DELETE", "/reusable/a").status == 405)
        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a/").status == 404)
        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a").status == 200)
        #expect(counts.calls.load(ordering: .relaxed) == 4)

        let other = try await TestHTTPClient.request(port: port, "GET", "/reusable/b")
        #expect(other.json["name"] as? String == "b")
        #expect(counts.calls.load(ordering: .relaxed) == 5)
    }

    @Test("Only the fields and Accept media types the server excludes send a request to its handler")
    func exclusionsComeFromTheConfiguration() async throws {
        let plain = try Self.harness()
        defer { plain.stop() }
        for headers in [[:], ["If-None-Match": "\"1\""], ["Accept": "text/event-stream"], ["X-Other": "1"]] {
            #expect(try await TestHTTPClient.request(port: plain.port, "GET", "/reusable/a", headers: headers).status == 200)
        }
        #expect(plain.reusable.calls.load(ordering: .relaxed) == 1, "no exclusion configured: every plain GET is reused")

        let excluding = try Self.harness(excluding: ReuseExclusions(fields: ["last-event-id"], acceptedMediaTypes: ["Text/Event-Stream"]))
        defer { excluding.stop() }
        let port = excluding.port
        let counts = excluding.reusable
        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a").status == 200)
        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a", headers: ["Accept": "application/json"]).status == 200)
        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a", headers: ["If-None-Match": "\"1\""]).status == 200)
        #expect(counts.calls.load(ordering: .relaxed) == 1)
        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a", headers: ["Last-Event-ID": "3"]).status == 200)
        #expect(counts.calls.load(ordering: .relaxed) == 2, "a field named in the exclusions, in another case")
        #expect(
            try await TestHTTPClient.request(port: port, "GET", "/reusable/a", headers: ["Accept": "application/json, TEXT/event-stream;q=0.5"])
                .status == 200)
        #expect(counts.calls.load(ordering: .relaxed) == 3, "an Accept field naming an excluded media type")
        #expect(try await TestHTTPClient.request(port: port, "GET", "/reusable/a", headers: ["Accept": "text/event"]).status == 200)
        #expect(counts.calls.load(ordering: .relaxed) == 3)
    }

    @Test("An answer marked reusable that is not prepared once is not kept")
    func unsharedAnswersAreNotKept() async throws {
        let harness = try Self.harness()
        defer { harness.stop() }
        for _ in 0..<3 {
            #expect(try await TestHTTPClient.request(port: harness.port, "GET", "/reusable-unshared").status == 200)
        }
        #expect(harness.reusable.calls.load(ordering: .relaxed) == 3)
    }

    @Test("With two polling threads, each keeps its own: the handler runs at most once per thread")
    func keptPerPollingThread() async throws {
        let harness = try RuntimeHarness { $0.threads = 2 }
        defer { harness.stop() }
        for _ in 0..<20 {
            let response = try await TestHTTPClient.request(port: harness.port, "GET", "/reusable/a")
            #expect(response.json["name"] as? String == "a")
        }
        #expect((1...2).contains(harness.reusable.calls.load(ordering: .relaxed)))
    }
}
