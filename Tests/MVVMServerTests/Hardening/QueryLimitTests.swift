import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import TestSupport
import Testing

/// Queries with many arguments. libmicrohttpd 0.9.75 keeps a record per argument in the
/// connection's small memory pool and, when they do not fit, never answered: the connection
/// hung until its timeout. The runtime now refuses such a query itself, with problem details.
@Suite("Queries too large for a connection's memory")
struct QueryLimitTests {
    typealias Fixture = BadInputBatteryTests.Fixture

    static func query(_ count: Int, valueLength: Int = 1) -> String {
        (0..<count).map { _ in "n=" + String(repeating: "1", count: valueLength) }.joined(separator: "&")
    }

    @Test("Hundreds of query arguments answer 414 uri-too-long at once (a body is dropped), and the connection stays open")
    func manyArguments() async throws {
        try await Fixture.with { fixture in
            let body = #"{"text": "changed", "number": 1}"#
            let answers = try await TestHTTPClient.inTurn(
                port: fixture.server.port,
                requests: [
                    "GET \(fixture.probe)?\(Self.query(300)) HTTP/1.1\r\nHost: localhost\r\n\r\n",
                    "POST \(fixture.probe)/input?\(Self.query(300)) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)",
                    "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n",
                ], timeout: 5)
            #expect(answers.count == 3)
            for refused in answers.prefix(2) {
                BadInputBatteryTests.expectProblem(try #require(refused), 414, type: "uri-too-long")
            }
            #expect(answers.last??.status == 200)
            try await fixture.expectUnchangedAndServing()
        }
    }

    @Test("Every query size is answered: served, refused by the server, or refused by libmicrohttpd")
    func everySize() async throws {
        try await Fixture.with { fixture in
            for count in [1, 10, 30, 40, 45, 50, 60, 100, 300, 1000] {
                for valueLength in [1, 50] {
                    let request =
                        "GET \(fixture.probe)?\(Self.query(count, valueLength: valueLength)) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    let answer = try await fixture.raw(request, timeout: 5)
                    let status = try #require(answer?.status, "\(count) arguments of \(valueLength) characters: no answer")
                    switch status {
                    case 200: #expect(count * (valueLength + 3) < 2048)
                    case 414 where answer?.headers["content-type"] == "application/problem+json":
                        BadInputBatteryTests.expectProblem(try #require(answer), 414, type: "uri-too-long")
                    case 414, 431: #expect(count * (valueLength + 3) > 3072, "libmicrohttpd refuses on its own only lines near its pool size")
                    default: Issue.record("\(count) arguments of \(valueLength) characters: \(status)")
                    }
                }
            }
            try await fixture.expectUnchangedAndServing()
        }
    }

    @Test("A few arguments, the last of a repeated name winning, are served as before")
    func fewArguments() async throws {
        try await Fixture.with { fixture in
            let answer = try await fixture.server.request("GET", "\(fixture.probe)?since=999999&since=0&wait=0&unused=1")
            #expect(answer.status == 200)
            #expect(answer.json["version"] as? Int == fixture.baselineVersion)
        }
    }
}
