import Foundation
import Logging
import MVVMSupport
import TestSupport
import Testing

@testable import MVVMCore
@testable import MVVMHTTP
@testable import MVVMJSON
@testable import MVVMServer

@Suite("The libmicrohttpd runtime, over real loopback HTTP")
struct RuntimeTests {
    @Test("Routes match path parameters, including one that spans several segments")
    func routesWithParameters() async throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        let response = try await TestHTTPClient.request(port: harness.port, "GET", "/echo/a%2Fb/film/2?q=x%20y")
        #expect(response.status == 200)
        #expect(response.json["first"] as? String == "a/b")
        #expect(response.json["rest"] as? String == "film/2")
        #expect(response.json["query"] as? String == "x y")
    }

    @Test(
        "A header field libmicrohttpd refuses closes the connection, whether the answer is shared or not; nothing is injected and the server goes on",
        arguments: ["", "?shared=1"])
    func refusedHeaderField(query: String) async throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        await #expect(throws: (any Error).self) {
            let response = try await TestHTTPClient.request(port: harness.port, "GET", "/refused-header" + query, timeout: 5)
            // Not reached when the connection is closed; a response here must not carry the field.
            #expect(response.headers["injected"] == nil)
        }
        let after = try await TestHTTPClient.request(port: harness.port, "GET", "/echo/a/b")
        #expect(after.status == 200)
    }

    @Test("Handlers get every header field, or only those the configuration names, whatever their case")
    func headerFieldsRead() async throws {
        let all = try RuntimeHarness()
        defer { all.stop() }
        let sent = ["x-KEPT": "1", "X-Other": "2", "If-None-Match": "\"3\""]
        let everything = try await TestHTTPClient.request(port: all.port, "GET", "/headers", headers: sent)
        #expect(everything.json["x-kept"] as? String == "1")
        #expect(everything.json["x-other"] as? String == "2")
        #expect(everything.json["if-none-match"] as? String == "\"3\"")
        #expect(everything.json["host"] != nil)

        let some = try RuntimeHarness { $0.headerFieldsRead = ["X-Kept", "if-none-match", "Accept"] }
        defer { some.stop() }
        let kept = try await TestHTTPClient.request(port: some.port, "GET", "/headers", headers: sent)
        #expect(kept.status == 200)
        #expect(kept.json.count == 2, "only the named fields that were sent: \(kept.json)")
        #expect(kept.json["x-kept"] as? String == "1")
        #expect(kept.json["if-none-match"] as? String == "\"3\"")
    }

    @Test("An unknown path answers 404 as problem details")
    func unknownPath() async throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        let response = try await TestHTTPClient.request(port: harness.port, "GET", "/nowhere")
        #expect(response.status == 404)
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(response.json["type"] as? String == HTTPError.typeBase + "not-found")
        #expect(response.json["status"] as? Int == 404)
        #expect(response.json["title"] != nil && response.json["detail"] != nil)
    }

    @Test("A known path with another method answers 405 with Allow")
    func wrongMethod() async throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        let response = try await TestHTTPClient.request(port: harness.port, "DELETE", "/park")
        #expect(response.status == 405)
        #expect(response.headers["allow"] == "GET, HEAD")
        #expect(response.headers["content-type"] == "application/problem+json")
    }

    @Test("A body over the cap answers 413 as problem details")
    func bodyTooLarge() async throws {
        let harness = try RuntimeHarness { $0.maxBodyBytes = 1000 }
        defer { harness.stop() }
        let response = try await TestHTTPClient.request(port: harness.port, "POST", "/echo/a/b", body: Data(repeating: 0x41, count: 5000))
        #expect(response.status == 413)
        #expect(response.headers["content-type"] == "application/problem+json")
        let fits = try await TestHTTPClient.request(port: harness.port, "POST", "/echo/a/b", body: Data(repeating: 0x41, count: 1000))
        #expect(fits.status == 200)
        #expect(fits.json["bytes"] as? String == "1000")
    }

    @Test("A body sent in several chunks, with pauses, arrives whole")
    func chunkedBody() async throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        let head = "POST /echo/a/b HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
        let chunks = [Data(head.utf8), Data("5\r\nhello\r\n".utf8), Data("6\r\n world\r\n".utf8), Data("0\r\n\r\n".utf8)]
        let raw = try await TestHTTPClient.exchange(port: harness.port, chunks: chunks, pause: 0.05)
        let response = try #require(TestHTTPClient.parse(raw))
        #expect(response.status == 200)
        #expect(response.json["bytes"] as? String == "11")
    }

    @Test("A parked request is resumed by an answer from another thread")
    func parkAndResume() async throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        async let response = TestHTTPClient.request(port: harness.port, "GET", "/park")
        try await harness.waitForParked(1)
        let responders = harness.takeParked()
        let answered = try await TestHTTPClient.onThread {
            responders[0].answer(.json(encoding: ["answeredBy": "thread"]))
        }
        #expect(answered)
        #expect(!responders[0].answer(.json(encoding: ["answeredBy": "twice"])))
        let result = try await response
        #expect(result.status == 200)
        #expect(result.json["answeredBy"] as? String == "thread")
        #expect(harness.server.parkedRequestCount == 0)
    }

    @Test("Requests answered from another thread just after their handler returned are all answered, parked or not")
    func answeredSoonAfter() async throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        // Some answers come within the polling loop's passes before parking, others after the
        // connection was suspended: both ways must deliver each answer once.
        let statuses = try await harness.concurrentAnswers(200, "/soon")
        #expect(statuses.count == 200)
        #expect(statuses.allSatisfy { $0.0 == 200 && $0.1 == "soon" })
        #expect(harness.server.parkedRequestCount == 0)
    }

    @Test("Work a handler leaves to the polling thread answers on the thread's next pass, for every request at once")
    func workLeftToThePollingThread() async throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        let answers = try await harness.concurrentAnswers(100, "/pass")
        #expect(answers.count == 100)
        #expect(answers.allSatisfy { $0.0 == 200 && $0.1 == "pass" }, "answered by the left work, not by the handler")
        #expect(harness.server.parkedRequestCount == 0)
    }

    @Test("Work left by a handler that also answered at once is still done")
    func workLeftByAnAnsweredRequest() async throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        // One request at a time: no other request on the thread comes back for an answer.
        for expected in 1...3 {
            let response = try await TestHTTPClient.request(port: harness.port, "GET", "/left")
            #expect(response.status == 200)
            #expect(harness.leftWorkDone.value == expected)
        }
    }

    @Test(
        "A parked request whose client went away (closed, or reset) completes once answered; the server keeps serving and still stops",
        arguments: [false, true])
    func parkedClientGone(reset: Bool) async throws {
        let harness = try RuntimeHarness()
        let fd = try TestHTTPClient.openIdleConnection(port: harness.port)
        #expect(TestHTTPClient.sendAll(fd, Data("GET /park HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)))
        try await harness.waitForParked(1)
        #expect(harness.server.core.unfinishedParks.load(ordering: .relaxed) == 1)
        // The client goes away while its connection is suspended (libmicrohttpd does not watch it).
        if reset {
            var lingerNone = linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &lingerNone, socklen_t(MemoryLayout<linger>.size))
        }
        close(fd)
        try await Task.sleep(for: .milliseconds(100))
        let responders = harness.takeParked()
        #expect(try await TestHTTPClient.onThread { responders[0].answer(.json(encoding: ["answeredBy": "thread"])) })
        #expect(
            try await eventually(every: .milliseconds(10)) { harness.server.core.unfinishedParks.load(ordering: .relaxed) == 0 },
            "the parked request completed")
        #expect(harness.server.parkedRequestCount == 0)
        let after = try await TestHTTPClient.request(port: harness.port, "GET", "/echo/a/b")
        #expect(after.status == 200)
        // stop() waits for every parked request to complete: it returns.
        await harness.stopped()
        #expect(harness.server.port == 0)
    }

    @Test("A parked request is answered when its own deadline passes")
    func deadline() async throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        let start = ContinuousClock.now
        let response = try await TestHTTPClient.request(port: harness.port, "GET", "/deadline")
        #expect(response.json["answeredBy"] as? String == "deadline")
        #expect(ContinuousClock.now - start >= .milliseconds(250))
        #expect(harness.server.expiredParkCount == 1)
    }

    @Test("Deadlines are swept only while requests are parked, and a park after a quiet spell is swept again")
    func sweepsOnlyWhileParked() async throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        let core = harness.server.core
        try await Task.sleep(for: .milliseconds(300))
        #expect(core.deadlineSweeps.load(ordering: .relaxed) == 0, "nothing was parked yet")
        for round in 1...2 {
            let start = ContinuousClock.now
            let response = try await TestHTTPClient.request(port: harness.port, "GET", "/deadline")
            #expect(response.json["answeredBy"] as? String == "deadline")
            #expect(ContinuousClock.now - start < .seconds(2), "round \(round): swept within a few sweeps of its 300 ms deadline")
            #expect(harness.server.expiredParkCount == round)
            // Nothing is parked now: after its last sweep, the sweeper waits for the next park.
            try await Task.sleep(for: .milliseconds(200))
            let quiet = core.deadlineSweeps.load(ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(500))
            #expect(core.deadlineSweeps.load(ordering: .relaxed) == quiet, "round \(round): no sweep while nothing is parked")
        }
    }

    @Test("The slow-client check runs every eighth of the connection timeout, between 250 ms and 1 s")
    func reaperInterval() {
        #expect(SlowClientReaper.checkInterval(timeoutMilliseconds: 1000) == 250)
        #expect(SlowClientReaper.checkInterval(timeoutMilliseconds: 4000) == 500)
        #expect(SlowClientReaper.checkInterval(timeoutMilliseconds: 30000) == 1000)
    }

    @Test("A parked request with no deadline of its own is answered 504 when the server's default passes")
    func defaultDeadline() async throws {
        let harness = try RuntimeHarness { $0.defaultParkDeadline = .milliseconds(300) }
        defer { harness.stop() }
        let start = ContinuousClock.now
        let response = try await TestHTTPClient.request(port: harness.port, "GET", "/park")
        #expect(response.status == 504)
        #expect((response.json["type"] as? String)?.hasSuffix("deadline-exceeded") == true)
        #expect(response.json["detail"] as? String == "The request was not answered before its deadline.")
        #expect(ContinuousClock.now - start >= .milliseconds(250))
        #expect(harness.server.expiredParkCount == 1)
    }

    /// What the runtime logs while answering GETs of `paths` with its logger at `level`.
    private func logged(at level: Logger.Level, answering paths: [String]) async throws -> [CapturedLogLine] {
        let lines = CapturedLogLines()
        var logger = Logger(label: "runtime-test") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = level
        let harness = try RuntimeHarness(logger: logger)
        defer { harness.stop() }
        for path in paths {
            _ = try await TestHTTPClient.request(port: harness.port, "GET", path)
        }
        return lines.all
    }

    @Test("At debug level every answered request is logged, its method, path, status and time as metadata")
    func requestLogLine() async throws {
        let logged = try await logged(at: .debug, answering: ["/echo/a/b", "/deadline"]).filter { $0.message == "answered" }
        #expect(logged.count == 2)
        let echo = try #require(logged.first)
        #expect(echo.level == .debug)
        #expect(echo.metadata["method"] == "GET" && echo.metadata["path"] == "/echo/a/b" && echo.metadata["status"] == "200")
        #expect(echo.metadata["duration_ms"]?.wholeMatch(of: /\d+\.\d{3}/) != nil)
        // The parked request's time runs from its arrival to its answer: at least its deadline.
        let parked = try #require(logged.last)
        let milliseconds = try #require(parked.metadata["duration_ms"].flatMap { Double($0) })
        #expect(parked.metadata["path"] == "/deadline")
        #expect(milliseconds >= 250 && milliseconds < 5000)
    }

    @Test("At info level no request is logged")
    func noRequestLogAtInfo() async throws {
        #expect(try await logged(at: .info, answering: ["/echo/a/b"]).isEmpty)
    }

    @Test("A prepared response is sent as prepared; a copy given another header is sent with it")
    func preparedResponseCopies() async throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        for _ in 0..<2 {
            let prepared = try await TestHTTPClient.request(port: harness.port, "GET", "/prepared")
            #expect(prepared.json["answeredBy"] as? String == "prepared")
            #expect(prepared.headers["x-extra"] == nil)
            let changed = try await TestHTTPClient.request(port: harness.port, "GET", "/prepared?extra=1")
            #expect(changed.json["answeredBy"] as? String == "prepared")
            #expect(changed.headers["x-extra"] == "1")
        }
    }

    @Test("stop() answers every parked request with 503, then stops")
    func stopWithParkedRequests() async throws {
        let harness = try RuntimeHarness()
        let port = harness.port
        async let first = TestHTTPClient.request(port: port, "GET", "/park")
        async let second = TestHTTPClient.request(port: port, "GET", "/park")
        try await harness.waitForParked(2)
        await harness.stopped()
        let answers = try await [first, second]
        #expect(answers.map(\.status) == [503, 503])
        #expect(answers.allSatisfy { $0.headers["content-type"] == "application/problem+json" })
        #expect(harness.server.port == 0)
        await #expect(throws: (any Error).self) {
            _ = try await TestHTTPClient.request(port: port, "GET", "/park", timeout: 1)
        }
    }

    @Test("At the connection limit, a further connection is refused and the server recovers")
    func connectionLimit() async throws {
        let harness = try RuntimeHarness {
            $0.maxConnections = 4
            $0.threads = 1
        }
        defer { harness.stop() }
        let idle = try (0..<4).map { _ in try TestHTTPClient.openIdleConnection(port: harness.port) }
        #expect(try await eventually { harness.server.openConnectionCount == 4 }, "the four are accepted")
        let extra = try TestHTTPClient.openIdleConnection(port: harness.port)
        #expect(await TestHTTPClient.isClosedByServer(extra, timeout: 2))
        close(extra)
        idle.forEach { close($0) }
        #expect(try await eventually { harness.server.openConnectionCount == 0 }, "the closed ones are let go")
        let response = try await TestHTTPClient.request(port: harness.port, "GET", "/echo/a/b")
        #expect(response.status == 200)
    }

    @Test("A second server on a taken port fails with a clear error")
    func portTaken() throws {
        let harness = try RuntimeHarness()
        defer { harness.stop() }
        let port = harness.port
        #expect {
            _ = try RuntimeHarness { $0.port = port }
        } throws: { error in
            String(describing: error).contains("cannot listen on 127.0.0.1:\(port)")
        }
    }

    @Test("An idle connection is closed after the connection timeout")
    func idleTimeout() async throws {
        let harness = try RuntimeHarness { $0.connectionTimeoutSeconds = 1 }
        defer { harness.stop() }
        let fd = try TestHTTPClient.openIdleConnection(port: harness.port)
        defer { close(fd) }
        #expect(await TestHTTPClient.isClosedByServer(fd, timeout: 4))
    }

    @Test("A client sending one byte at a time is cut off at the connection timeout, and counted")
    func slowClient() async throws {
        let harness = try RuntimeHarness { $0.connectionTimeoutSeconds = 1 }
        defer { harness.stop() }
        let request = Array("GET /echo/a/b HTTP/1.1\r\nHost: localhost\r\nX-Slow: \(String(repeating: "s", count: 40))\r\n\r\n".utf8)
        let start = ContinuousClock.now
        let received = try await TestHTTPClient.exchange(port: harness.port, chunks: request.map { Data([$0]) }, pause: 0.2, timeout: 20)
        let elapsed = ContinuousClock.now - start
        #expect(received.isEmpty)
        #expect(elapsed < .seconds(6), "a trickle of \(request.count) bytes every 0.2 s would take \(Double(request.count) * 0.2) s")
        #expect(harness.server.slowClientsCutCount == 1)
        let normal = try await TestHTTPClient.request(port: harness.port, "GET", "/echo/a/b")
        #expect(normal.status == 200)
    }
}
