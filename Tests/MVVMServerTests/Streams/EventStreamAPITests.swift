import Foundation
import MVVMServer
import TestSupport
import Testing

/// The Server-Sent Events contract over loopback HTTP: each long-pollable document streamed
/// with `Accept: text/event-stream`, its first message, one message per new version, and
/// `Last-Event-ID`.
@Suite("Server-Sent Events streams")
struct EventStreamAPITests {
    @Test("A state stream answers 200 text/event-stream, sends the current state at once, then each new version")
    func stateStream() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/scenes/counter"
            let current = try await api.loadedState(id, "counter")
            let stream = try await api.stream(path)
            #expect(await stream.status == 200)
            #expect(await stream.headers["content-type"] == "text/event-stream")
            #expect(await stream.headers["cache-control"] == "no-store")
            let first = try #require(try await stream.next())
            #expect(first.event == "state")
            #expect(first.id == String(try #require(current.documentVersion)))
            #expect(first.dataLines == 1)
            #expect(first.data == current.text)

            let input = try await api.post("\(path)/input", ["name": "Ada"])
            let next = try #require(try await stream.next())
            #expect(next.event == "state")
            #expect(next.id == String(try #require(input.documentVersion)))
            #expect(next.data == input.text)
            #expect(next.json["input"].flatMap { ($0 as? [String: Any])?["name"] as? String } == "Ada")

            // The same GET without the header is a plain document, as before.
            let plain = try await api.get(path)
            #expect(plain.headers["content-type"] == "application/json")
            #expect(plain.text == input.text)
            await stream.close()
        }
    }

    @Test("Last-Event-ID (or since) of the current version sends nothing until the next change; an older one sends the current state at once")
    func lastEventID() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/scenes/counter"
            let version = try #require(try await api.loadedState(id, "counter").documentVersion)
            let upToDate = try await api.stream(path, headers: ["Last-Event-ID": String(version)])
            let byQuery = try await api.stream("\(path)?since=\(version)")
            #expect(try await upToDate.next(timeout: 0.3) == nil)
            #expect(try await byQuery.next(timeout: 0.3) == nil)

            let input = try await api.post("\(path)/input", ["step": 2])
            let newVersion = try #require(input.documentVersion)
            for stream in [upToDate, byQuery] {
                let message = try #require(try await stream.next())
                #expect(message.id == String(newVersion))
                #expect(message.data == input.text)
                await stream.close()
            }

            // An older version (or one from another run of the view model) gets the current state.
            let behind = try await api.stream(path, headers: ["Last-Event-ID": String(version)])
            let caughtUp = try #require(try await behind.next())
            #expect(caughtUp.id == String(newVersion))
            #expect(caughtUp.data == input.text)
            // The header wins over the query, as a reconnecting EventSource keeps its URL.
            let both = try await api.stream("\(path)?since=\(newVersion)", headers: ["Last-Event-ID": String(version)])
            #expect(try await both.next()?.id == String(newVersion))
            await behind.close()
            await both.close()
        }
    }

    @Test("A Last-Event-ID that is not a version is refused with 400 naming it, on a stream and on a plain GET")
    func malformedLastEventID() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            for bad in ["abc", "-1", "18446744073709551616", "1.5", ""] {
                let stream = try await api.stream("/sessions/\(id)/scenes/counter", headers: ["Last-Event-ID": bad])
                #expect(await stream.status == 400)
                let body = try await stream.body()
                let problem = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
                #expect(problem["type"] as? String == "https://mvvmserver.dev/problems/invalid-parameter")
                #expect(problem["member"] as? String == "Last-Event-ID")
                await stream.close()
            }
            // A plain GET validates it too.
            let plain = try await api.get("/sessions/\(id)/navigation", headers: ["Last-Event-ID": "x"])
            APIClient.expectProblem(plain, 400, "invalid-parameter", member: "Last-Event-ID")
        }
    }

    @Test("A snapshot stream starts with the whole snapshot, then sends the changes that ?since= answers")
    func snapshotStream() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/scenes/shelf/snapshot"
            let whole = try await api.get(path)
            let v0 = try #require(whole.documentVersion)
            let stream = try await api.stream(path)
            let first = try #require(try await stream.next())
            #expect(first.event == "snapshot")
            #expect(first.id == String(v0))
            #expect(first.data == whole.text)

            _ = try await api.post("/sessions/\(id)/scenes/shelf/actions/add", ["id": "3", "title": "Hamlet"])
            let changes = try #require(try await stream.next())
            let answered = try await api.get("\(path)?since=\(v0)")
            #expect(changes.event == "changes")
            #expect(changes.id == String(try #require(answered.documentVersion)))
            #expect(changes.data == answered.text)
            #expect(changes.json["kind"] as? String == "changes")
            await stream.close()

            // Resumed from a kept version: the changes since it; from one not kept: the whole snapshot.
            let resumed = try await api.stream(path, headers: ["Last-Event-ID": String(v0)])
            let sinceKept = try #require(try await resumed.next())
            #expect(sinceKept.event == "changes")
            #expect(sinceKept.data == answered.text)
            let lost = try await api.stream(path, headers: ["Last-Event-ID": "0"])
            let again = try #require(try await lost.next())
            #expect(again.event == "snapshot")
            #expect(again.data == (try await api.get(path)).text)
            await resumed.close()
            await lost.close()
        }
    }

    @Test("A navigation stream sends the navigation, then each change of it")
    func navigationStream() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/navigation"
            let before = try await api.get(path)
            let stream = try await api.stream(path)
            let first = try #require(try await stream.next())
            #expect(first.event == "navigation")
            #expect(first.data == before.text)
            #expect(first.id == String(try #require(before.documentVersion)))

            _ = try await api.post("/sessions/\(id)/scenes/counter/actions/open", ["id": 7])
            let pushed = try #require(try await stream.next())
            let after = try await api.get(path)
            #expect(pushed.event == "navigation")
            #expect(pushed.data == after.text)
            #expect((pushed.json["stack"] as? [Any])?.count == 2)
            await stream.close()
        }
    }

    @Test("An event-feed stream sends the kept events first, then the events after the last one sent")
    func eventFeedStream() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            _ = try await api.loadedState(id, "counter")
            let kept = try await api.get("/sessions/\(id)/events")
            let stream = try await api.stream("/sessions/\(id)/events")
            let first = try #require(try await stream.next())
            #expect(first.event == "events")
            #expect(first.data == kept.text)
            let lastSeq = try #require(kept.documentVersion)
            #expect(first.id == String(lastSeq))

            _ = try await api.post("/sessions/\(id)/scenes/counter/actions/increment", [:])
            let next = try #require(try await stream.next())
            let after = try await api.get("/sessions/\(id)/events?since=\(lastSeq)")
            #expect(next.event == "events")
            #expect(next.data == after.text)
            #expect(next.id == String(try #require(after.documentVersion)))
            #expect(((next.json["events"] as? [[String: Any]])?.first?["seq"] as? Int ?? 0) > lastSeq)
            await stream.close()
        }
    }

    @Test("An event-feed stream from events no longer kept is refused with 410 events-expired")
    func expiredEvents() async throws {
        try await APIClient.run(configure: { $0.eventHistory = 2 }) { api in
            let id = try await api.createSession()
            _ = try await api.loadedState(id, "counter")
            for _ in 0..<3 { _ = try await api.post("/sessions/\(id)/scenes/counter/actions/increment", [:]) }
            let stream = try await api.stream("/sessions/\(id)/events", headers: ["Last-Event-ID": "1"])
            #expect(await stream.status == 410)
            let problem = (try? JSONSerialization.jsonObject(with: try await stream.body())) as? [String: Any] ?? [:]
            #expect(problem["type"] as? String == "https://mvvmserver.dev/problems/events-expired")
            await stream.close()
        }
    }

    @Test("A stream of an unknown scene or session answers the same problem as a plain GET")
    func unknownTargets() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            for path in ["/sessions/\(id)/scenes/nowhere", "/sessions/\(id)/scenes/counter/snapshot", "/sessions/AAAAAAAAAAAAAAAAAAAAAA/navigation"] {
                let plain = try await api.get(path)
                let stream = try await api.stream(path)
                #expect(await stream.status == plain.status)
                #expect(plain.status == 404)
                #expect(try await stream.body() == plain.body)
                await stream.close()
            }
        }
    }

    @Test("A plain read kept by the runtime does not answer a stream request for the same path")
    func keptAnswerIsNotAStream() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/scenes/counter"
            _ = try await api.loadedState(id, "counter")
            // Read often enough that each polling thread keeps the answer.
            for _ in 0..<8 { _ = try await api.get(path) }
            for _ in 0..<4 {
                let stream = try await api.stream(path)
                #expect(await stream.headers["content-type"] == "text/event-stream")
                #expect(try await stream.next()?.event == "state")
                await stream.close()
            }
        }
    }

    @Test("An Accept field that prefers JSON gets JSON; one that prefers the stream gets the stream")
    func acceptPreferences() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/navigation"
            let json = try await api.get(path, headers: ["Accept": "application/json, text/event-stream;q=0.5"])
            #expect(json.headers["content-type"] == "application/json")
            let stream = try await api.stream(path, headers: ["Accept": "application/json;q=0.2, Text/Event-Stream"])
            #expect(await stream.headers["content-type"] == "text/event-stream")
            await stream.close()
        }
    }
}

extension APIClient {
    /// Opens a Server-Sent Events stream of `path` (`Accept: text/event-stream`, or the
    /// `Accept` field given in `headers`).
    func stream(_ path: String, headers: [String: String] = [:]) async throws -> TestEventStream {
        try await TestEventStream(port: app.port, path: path, headers: headers)
    }
}
