import Foundation
import MVVMServer
import ServerTestSupport
import TestSupport
import Testing

/// How Server-Sent Events streams live and end over loopback HTTP: heartbeats, `gone` when the
/// session ends, a clean end when the server stops, the caps they count against, and the
/// release of streams whose clients went away.
@Suite("Server-Sent Events streams: heartbeats, endings and limits")
struct EventStreamLifecycleTests {
    @Test("A quiet stream gets a heartbeat comment every heartbeat interval")
    func heartbeats() async throws {
        try await APIClient.run(configure: { $0.http.streamHeartbeatSeconds = 0.2 }) { api in
            let id = try await api.createSession()
            let requested = ContinuousClock.now
            let stream = try await api.stream("/sessions/\(id)/navigation")
            #expect(try await stream.next()?.event == "navigation")
            // Load can delay heartbeats and bunch them up on the way, but never make the server
            // send them sooner: three come within a generous bound, and no more were sent than
            // intervals passed since the stream was asked for.
            while await stream.comments < 3, ContinuousClock.now - requested < .seconds(10) {
                #expect(try await stream.next(timeout: 0.25) == nil, "nothing but heartbeats is sent")
            }
            let elapsed = ContinuousClock.now - requested
            let comments = await stream.comments
            #expect(comments >= 3, "three heartbeats within 10 s")
            #expect(Double(comments) <= elapsed / .milliseconds(200) + 1, "\(comments) heartbeats of 0.2 s in \(elapsed)")
            await stream.close()
        }
    }

    @Test("Deleting the session sends gone with the 410 problem, then ends the stream and gives back its place")
    func goneOnDelete() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            _ = try await api.loadedState(id, "counter")
            let streams = [
                try await api.stream("/sessions/\(id)/scenes/counter"),
                try await api.stream("/sessions/\(id)/scenes/shelf/snapshot"),
                try await api.stream("/sessions/\(id)/navigation"),
                try await api.stream("/sessions/\(id)/events"),
            ]
            for stream in streams { #expect(try await stream.next() != nil) }
            #expect(try await api.metric("mvvm_parked_requests") == 4)
            #expect(try await api.metric("mvvm_open_streams") == 4)

            #expect(try await api.delete("/sessions/\(id)").status == 204)
            for stream in streams {
                let gone = try #require(try await stream.next())
                #expect(gone.event == "gone")
                #expect(gone.json["status"] as? Int == 410)
                #expect(gone.json["type"] as? String == "https://mvvmserver.dev/problems/session-gone")
                #expect(try await stream.waitForEnd(timeout: 5))
                #expect(await stream.endedCleanly)
            }
            #expect(try await eventually { try await api.metric("mvvm_parked_requests") == 0 })
            #expect(try await eventually { try await api.metric("mvvm_open_streams") == 0 })
        }
    }

    @Test("A graceful stop ends every stream cleanly, without gone")
    func cleanEndOnStop() async throws {
        let app = try await TestApplication(catalogue: APIFixtures.catalogue())
        let id = try await app.createSession()
        let stream = try await TestEventStream(port: app.port, path: "/sessions/\(id)/navigation")
        #expect(try await stream.next()?.event == "navigation")
        await app.stop()
        #expect(try await stream.next(timeout: 5) == nil)
        #expect(await stream.isEnded)
        #expect(await stream.endedCleanly)
        await stream.close()
    }

    @Test("Streams count against the per-session and total caps with long-polls; beyond them 503 with Retry-After")
    func caps() async throws {
        try await APIClient.run(configure: {
            $0.maxParkedPerSession = 2
            $0.maxParkedTotal = 3
            $0.http.connectionTimeoutSeconds = 2
        }) { api in
            let first = try await api.createSession()
            let second = try await api.createSession()
            let a = try await api.stream("/sessions/\(first)/navigation")
            let b = try await api.stream("/sessions/\(first)/events")
            let refusedOnSession = try await api.stream("/sessions/\(first)/navigation")
            #expect(await refusedOnSession.status == 503)
            #expect(await refusedOnSession.headers["retry-after"] == "1")
            let problem = (try? JSONSerialization.jsonObject(with: try await refusedOnSession.body())) as? [String: Any] ?? [:]
            #expect(problem["type"] as? String == "https://mvvmserver.dev/problems/capacity-reached")
            // A long-poll counts against the same cap.
            let version = try #require(try await api.get("/sessions/\(first)/navigation").documentVersion)
            let longPoll = try await api.get("/sessions/\(first)/navigation?since=\(version)&wait=5")
            #expect(longPoll.status == 503)

            let c = try await api.stream("/sessions/\(second)/navigation")
            #expect(await c.status == 200)
            let refusedInAll = try await api.stream("/sessions/\(second)/events")
            #expect(await refusedInAll.status == 503)

            // A closed stream gives its place back once the server has noticed (within the
            // connection timeout).
            await a.close()
            #expect(
                try await eventually(within: .seconds(5), every: .milliseconds(100)) {
                    let again = try await api.stream("/sessions/\(first)/navigation")
                    defer { Task { await again.close() } }
                    return await again.status == 200
                })
            for stream in [b, c, refusedOnSession, refusedInAll] { await stream.close() }
        }
    }

    @Test("Streams whose clients close or reset their connection are released within the connection timeout")
    func vanishedClients() async throws {
        try await APIClient.run(configure: { $0.http.connectionTimeoutSeconds = 2 }) { api in
            let id = try await api.createSession()
            var streams: [TestEventStream] = []
            for index in 0..<20 {
                let path = index % 2 == 0 ? "/sessions/\(id)/navigation" : "/sessions/\(id)/events"
                let stream = try await api.stream(path)
                #expect(try await stream.next() != nil)
                streams.append(stream)
            }
            #expect(try await api.metric("mvvm_open_streams") == 20)
            for (index, stream) in streams.enumerated() { await stream.close(resetting: index % 2 == 1) }
            let closed = ContinuousClock.now
            #expect(try await eventually(within: .seconds(5)) { try await api.metric("mvvm_open_streams") == 0 })
            #expect(ContinuousClock.now - closed < .seconds(3), "noticed within the connection timeout (2 s, checked every 1 s)")
            #expect(try await api.metric("mvvm_parked_requests") == 0)
            #expect(api.app.app.streamsCutOffCount == 20)
        }
    }
}
