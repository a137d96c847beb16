import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import TestSupport
import Testing

@Suite("Navigation and events over HTTP")
struct NavigationAPITests {
    @Test("The navigation lists the stack, root first, and the modal, with its version as ETag")
    func navigationDocument() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let response = try await api.get("/sessions/\(id)/navigation")
            #expect(response.status == 200)
            #expect(response.headers["cache-control"] == "no-store")
            let version = try #require(response.documentVersion)
            #expect(response.headers["etag"] == "\"\(version)\"")
            #expect(response.json["modal"] is NSNull)
            let root = try #require((response.json["stack"] as? [[String: Any]])?.first)
            #expect(root["scene"] as? String == "counter")
            #expect(root["key"] as? String == "counter")
            #expect(root["path"] as? String == "/sessions/\(id)/scenes/counter")
            #expect(root["presentation"] as? String == "root")
            #expect((root["slots"] as? [String: Any])?.isEmpty == true)
        }
    }

    @Test("A navigation long-poll is woken by a push; back pops it, and back at the root answers 409")
    func pushAndBack() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let version = try #require(try await api.get("/sessions/\(id)/navigation").documentVersion)
            async let woken = api.get("/sessions/\(id)/navigation?since=\(version)&wait=30", timeout: 40)
            try await api.waitUntilParked(1)
            _ = try await api.post("/sessions/\(id)/scenes/counter/actions/open", ["id": 3])
            let pushed = try await woken
            #expect((pushed.json["stack"] as? [[String: Any]])?.map { $0["key"] as? String } == ["counter", "detail/3"])
            let pushedVersion = try #require(pushed.documentVersion)
            #expect(pushedVersion > version)

            let back = try await api.app.request("POST", "/sessions/\(id)/navigation/back")
            #expect(back.status == 200)
            #expect(back.headers["cache-control"] == "no-store")
            #expect((back.json["stack"] as? [[String: Any]])?.map { $0["key"] as? String } == ["counter"])
            #expect(try #require(back.documentVersion) > pushedVersion)
            #expect(back.headers["etag"] == "\"\(back.documentVersion ?? 0)\"")
            let entries = try #require(try await api.get("/sessions/\(id)").json["entries"] as? [[String: Any]])
            #expect(entries.map { $0["key"] as? String } == ["counter"])

            APIClient.expectProblem(try await api.app.request("POST", "/sessions/\(id)/navigation/back"), 409, "navigation-conflict")
        }
    }

    @Test("Events list what happened after since, in order")
    func eventsSince() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            _ = try await api.loadedState(id, "counter")
            let all = try await api.get("/sessions/\(id)/events")
            #expect(all.status == 200)
            #expect(all.headers["cache-control"] == "no-store")
            let events = try #require(all.json["events"] as? [[String: Any]])
            #expect(events.compactMap { $0["type"] as? String } == ["didSetup", "didSetRoot", "willLoad", "didLoad"])
            #expect(events.allSatisfy { $0["key"] as? String == "counter" })
            let seqs = events.compactMap { $0["seq"] as? Int }
            #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
            #expect(all.documentVersion == seqs.last)

            let later = try await api.get("/sessions/\(id)/events?since=\(seqs[1])")
            #expect((later.json["events"] as? [[String: Any]])?.compactMap { $0["seq"] as? Int } == Array(seqs[2...]))

            _ = try await api.post("/sessions/\(id)/scenes/counter/input", ["name": "Ada"])
            let update = try await api.get("/sessions/\(id)/events?since=\(seqs.last ?? 0)")
            let updated = try #require((update.json["events"] as? [[String: Any]])?.first)
            #expect(updated["type"] as? String == "didUpdate")
            #expect(updated["changes"] as? [String] == ["greeting"])
            #expect(updated["slot"] == nil)
        }
    }

    @Test("An events long-poll is woken by the next event, and answers an empty list when its wait runs out")
    func eventsLongPoll() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            _ = try await api.loadedState(id, "counter")
            let last = try #require(try await api.get("/sessions/\(id)/events").documentVersion)

            let quiet = try await api.get("/sessions/\(id)/events?since=\(last)&wait=0.3")
            #expect(quiet.status == 200)
            #expect((quiet.json["events"] as? [Any])?.isEmpty == true)
            #expect(quiet.documentVersion == last)

            async let woken = api.get("/sessions/\(id)/events?since=\(last)&wait=30", timeout: 40)
            try await api.waitUntilParked(1)
            _ = try await api.post("/sessions/\(id)/scenes/counter/actions/increment", raw: nil)
            let response = try await woken
            let events = try #require(response.json["events"] as? [[String: Any]])
            #expect(events.first?["type"] as? String == "didUpdate")
            #expect(events.first?["changes"] as? [String] == ["count"])
            #expect(try #require(response.documentVersion) > last)
        }
    }

    @Test("Events after a sequence number that is no longer kept answer 410")
    func eventsExpired() async throws {
        try await APIClient.run(configure: { $0.eventHistory = 4 }) { api in
            let id = try await api.createSession()
            _ = try await api.loadedState(id, "counter")
            for _ in 0..<4 {
                _ = try await api.post("/sessions/\(id)/scenes/counter/actions/increment", raw: nil)
            }
            APIClient.expectProblem(try await api.get("/sessions/\(id)/events?since=1"), 410, "events-expired", member: "since")
            APIClient.expectProblem(try await api.get("/sessions/\(id)/events?since=1&wait=5"), 410, "events-expired", member: "since")
            let last = try #require(try await api.get("/sessions/\(id)/events?since=1000").documentVersion)
            let kept = try await api.get("/sessions/\(id)/events?since=\(last - 1)")
            #expect(kept.status == 200)
            #expect((kept.json["events"] as? [[String: Any]])?.compactMap { $0["seq"] as? Int } == [last])
        }
    }
}
