import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import ServerTestSupport
import TestSupport
import Testing

/// Greedy clients: many idle connections, connections over the cap, long-polls whose clients
/// vanish. The server keeps serving well-behaved clients throughout.
@Suite("Greedy clients")
struct GreedyClientTests {
    @Test("1,000 idle connections do not stop new clients; over the cap new ones are refused, and the server recovers")
    func idleConnectionsAndTheCap() async throws {
        let server = try await TestApplication(catalogue: ProbeApp.catalogue) { $0.http.maxConnections = 1_010 }
        var idle: [Int32] = []
        defer { idle.forEach { close($0) } }
        for _ in 0..<1_000 { idle.append(try TestHTTPClient.openIdleConnection(port: server.port)) }
        // Under the cap: a new client is served while the 1,000 sit idle.
        let served = try await server.request("GET", "/health")
        #expect(served.status == 200)
        // Fill the cap, then one more is closed at once rather than left waiting.
        for _ in 0..<10 { idle.append(try TestHTTPClient.openIdleConnection(port: server.port)) }
        // Every one of them accepted first (under a sanitizer, accepting 1,010 takes a while).
        #expect(try await eventually(within: .seconds(20)) { server.app.openConnectionCount >= 1_010 })
        let extra = try TestHTTPClient.openIdleConnection(port: server.port)
        #expect(await TestHTTPClient.isClosedByServer(extra, timeout: 3))
        close(extra)
        // When the idle clients go, new clients are served again. Their ends are normally seen
        // within a second; the wait runs past the 30-second connection timeout, by which
        // libmicrohttpd and the slow-client reaper close a connection whose end was missed (CI's
        // ThreadSanitizer suite once saw connections still open 20 seconds on).
        idle.forEach { close($0) }
        idle.removeAll()
        #expect(
            try await eventually(within: .seconds(45)) { server.app.openConnectionCount == 0 },
            "connections still open: \(server.app.openConnectionCount)")
        #expect(try await server.request("GET", "/health").status == 200)
        await server.stop()
    }

    @Test("Long-polls whose clients disconnect are released by their deadline and counted")
    func vanishedLongPolls() async throws {
        let server = try await TestApplication(catalogue: ProbeApp.catalogue)
        let (probe, version) = try await Self.loadedProbe(server)
        // Ten clients park a long-poll for eight seconds, then vanish without reading the
        // answer. (Long enough to be seen all parked at once even when this test's task waits
        // seconds for a thread, as it can in the sanitizer suites.)
        let request = Data("GET \(probe)?since=\(version)&wait=8 HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        var sockets: [Int32] = []
        for _ in 0..<10 {
            sockets.append(try Self.send(request, to: server))
        }
        #expect(try await Self.waitForMetric("mvvm_parked_requests", 10, server), "the ten long-polls were parked at once")
        // Half close their connection, half reset it (libmicrohttpd then closes the resumed
        // connection without calling the access handler again).
        for (index, fd) in sockets.enumerated() where index % 2 == 1 {
            Self.resetOnClose(fd)
        }
        sockets.forEach { close($0) }
        // Nothing answers them but their deadline, eight seconds after they parked.
        #expect(try await Self.waitForMetric("mvvm_parked_requests", 0, server, seconds: 20))
        #expect(try await server.metric("mvvm_long_polls_expired_total") == 10)
        // The gauge falls when a long-poll is answered; the runtime lets go of the request once
        // libmicrohttpd has resumed its connection and found it closed, a pass of its loop later.
        #expect(
            try await eventually(within: .seconds(5)) { server.app.parkedConnectionCount == 0 },
            "the runtime keeps no parked request whose connection closed")
        #expect(try await server.request("GET", probe).status == 200)
        await server.stop()
    }

    @Test("Long-polls whose clients reset their connection at once hold no place beyond the parked ones")
    func longPollsResetAtOnce() async throws {
        let server = try await TestApplication(catalogue: ProbeApp.catalogue)
        let (probe, version) = try await Self.loadedProbe(server)
        // A long wait, so that no deadline releases anything during the test. Each client resets
        // its connection right after sending: the runtime sees it while the request is given its
        // passes of the polling loop (then the long-poll must give back its place at once), or
        // after it was parked (then it keeps its place until its deadline, as a parked
        // connection is not watched), or before reading the request (then it never had one).
        let request = Data("GET \(probe)?since=\(version)&wait=60 HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        for _ in 0..<100 {
            let fd = try Self.send(request, to: server)
            Self.resetOnClose(fd)
            close(fd)
        }
        try await Task.sleep(for: .milliseconds(300))
        let places = try #require(try await server.metric("mvvm_parked_requests"))
        #expect(places == server.app.parkedConnectionCount, "every long-poll holding a place is parked")
        #expect(places < 100)
        await server.stop()
    }

    /// A new session's probe scene once loaded, and its last version. The root scene loads in
    /// the background: waiting for its last version makes a long-poll on it wait for a change
    /// that never comes (instead of being answered by the load).
    static func loadedProbe(_ server: TestApplication) async throws -> (path: String, version: Int) {
        let session = try await server.createSession()
        let probe = "/sessions/\(session)/scenes/probe"
        _ = try await server.request("GET", probe)
        // The probe's load has ended once the session has settled.
        #expect(try await server.request("GET", "/sessions/\(session)/settled?wait=10").json["settled"] as? Bool == true)
        let state = try await server.request("GET", probe).json
        #expect(state["lifecycle"] as? String == "loaded")
        return (probe, try #require(state["version"] as? Int))
    }

    /// Sends raw request bytes on a new connection and returns its socket, unread.
    static func send(_ request: Data, to server: TestApplication) throws -> Int32 {
        let fd = try TestHTTPClient.openIdleConnection(port: server.port)
        _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, request.count, Int32(MSG_NOSIGNAL)) }
        return fd
    }

    /// Makes closing the socket reset the connection (RST) instead of ending it (FIN).
    static func resetOnClose(_ fd: Int32) {
        var reset = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
    }

    /// Whether a metric reads `value` within `seconds`.
    static func waitForMetric(_ name: String, _ value: Int, _ server: TestApplication, seconds: Int = 10) async throws -> Bool {
        try await eventually(within: .seconds(seconds), every: .milliseconds(10)) { try await server.metric(name) == value }
    }
}
