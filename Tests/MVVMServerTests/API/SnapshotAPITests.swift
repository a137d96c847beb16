import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import TestSupport
import Testing

@Suite("Snapshots and their changes over HTTP")
struct SnapshotAPITests {
    /// The ids of a list of positions or moves, e.g. `changes.items.inserted`.
    static func ids(_ document: [String: Any], _ group: String, _ kind: String) -> [String] {
        let changes = document["changes"] as? [String: Any]
        let list = (changes?[group] as? [String: Any])?[kind] as? [[String: Any]] ?? []
        return list.compactMap { $0["id"] as? String }
    }

    /// Whether every list of a changes document is empty.
    static func isEmpty(_ document: [String: Any]) -> Bool {
        ["inserted", "deleted", "moved"].allSatisfy { ids(document, "sections", $0).isEmpty }
            && ["inserted", "deleted", "moved", "changed"].allSatisfy { ids(document, "items", $0).isEmpty }
    }

    @Test("A snapshot lists its sections and items, each item with its id, cell and content")
    func wholeSnapshot() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let response = try await api.get("/sessions/\(id)/scenes/shelf/snapshot")
            #expect(response.status == 200)
            #expect(response.headers["cache-control"] == "no-store")
            #expect(response.json["kind"] as? String == "snapshot")
            let version = try #require(response.documentVersion)
            #expect(response.headers["etag"] == "\"\(version)\"")
            let sections = try #require(response.json["sections"] as? [[String: Any]])
            #expect(sections.map { $0["id"] as? String } == ["books"])
            let items = try #require(sections.first?["items"] as? [[String: Any]])
            #expect(items.map { $0["id"] as? String } == ["1", "2"])
            #expect(items.map { $0["cell"] as? String } == ["book", "book"])
            #expect(items.map { $0["title"] as? String } == ["Dune", "Emma"])
        }
    }

    @Test("With since, a snapshot answers the inserted, deleted, moved and changed items since that version")
    func changesSince() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/scenes/shelf/snapshot"
            let actions = "/sessions/\(id)/scenes/shelf/actions"
            let v0 = try #require(try await api.get(path).documentVersion)

            _ = try await api.post("\(actions)/add", ["id": "3", "title": "Hamlet"])
            let added = try await api.get("\(path)?since=\(v0)")
            #expect(added.json["kind"] as? String == "changes")
            #expect(added.json["since"] as? Int == v0)
            let v1 = try #require(added.documentVersion)
            #expect(v1 > v0)
            #expect(added.headers["etag"] == "\"\(v1)\"")
            let inserted = try #require(((added.json["changes"] as? [String: Any])?["items"] as? [String: Any])?["inserted"] as? [[String: Any]])
            #expect(inserted.count == 1)
            #expect(inserted.first?["id"] as? String == "3")
            #expect(inserted.first?["section"] as? String == "books")
            #expect(inserted.first?["index"] as? Int == 2)
            #expect(Self.ids(added.json, "items", "deleted").isEmpty)

            _ = try await api.post("\(actions)/rename", ["id": "1", "title": "Dune Messiah"])
            let renamed = try await api.get("\(path)?since=\(v1)")
            #expect(Self.ids(renamed.json, "items", "changed") == ["1"])
            #expect(Self.ids(renamed.json, "items", "inserted").isEmpty)
            let v2 = try #require(renamed.documentVersion)

            _ = try await api.post("\(actions)/remove", ["id": "2"])
            let removed = try await api.get("\(path)?since=\(v2)")
            #expect(Self.ids(removed.json, "items", "deleted") == ["2"])
            let v3 = try #require(removed.documentVersion)

            _ = try await api.post("\(actions)/moveToFront", ["id": "3"])
            let moved = try await api.get("\(path)?since=\(v3)")
            #expect(Self.ids(moved.json, "items", "moved").count == 1)
            #expect(Self.ids(moved.json, "items", "inserted").isEmpty && Self.ids(moved.json, "items", "deleted").isEmpty)
            let v4 = try #require(moved.documentVersion)

            let sinceStart = try await api.get("\(path)?since=\(v0)")
            #expect(sinceStart.documentVersion == v4)
            #expect(Self.ids(sinceStart.json, "items", "inserted") == ["3"])
            #expect(Self.ids(sinceStart.json, "items", "deleted") == ["2"])
            #expect(Self.ids(sinceStart.json, "items", "changed") == ["1"])

            let current = try await api.get("\(path)?since=\(v4)")
            #expect(current.json["kind"] as? String == "changes")
            #expect(Self.isEmpty(current.json))

            let whole = try await api.get(path)
            let items = ((whole.json["sections"] as? [[String: Any]])?.first?["items"] as? [[String: Any]]) ?? []
            #expect(items.map { $0["id"] as? String } == ["3", "1"])
            #expect(items.map { $0["title"] as? String } == ["Hamlet", "Dune Messiah"])
        }
    }

    @Test("With a version that is not kept, a snapshot answers the whole snapshot")
    func versionNotKept() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/scenes/shelf/snapshot"
            let version = try #require(try await api.get(path).documentVersion)
            for since in [0, version + 100] {
                let response = try await api.get("\(path)?since=\(since)")
                #expect(response.json["kind"] as? String == "snapshot")
                #expect(response.documentVersion == version)
                #expect(response.json["sections"] is [Any])
            }
        }
    }

    @Test("A snapshot long-poll is woken by an action, with the changes")
    func snapshotLongPoll() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/scenes/shelf/snapshot"
            let version = try #require(try await api.get(path).documentVersion)
            async let woken = api.get("\(path)?since=\(version)&wait=30", timeout: 40)
            try await api.waitUntilParked(1)
            _ = try await api.post("/sessions/\(id)/scenes/shelf/actions/add", ["id": "9", "title": "Ulysses"])
            let response = try await woken
            #expect(response.json["kind"] as? String == "changes")
            #expect(response.json["since"] as? Int == version)
            #expect(Self.ids(response.json, "items", "inserted") == ["9"])
        }
    }

    @Test("A scene without a snapshot answers 404, and so does an unknown key")
    func noSnapshot() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            APIClient.expectProblem(try await api.get("/sessions/\(id)/scenes/counter/snapshot"), 404, "snapshot-not-found")
            APIClient.expectProblem(try await api.get("/sessions/\(id)/scenes/film/2/snapshot"), 404, "scene-not-found")
        }
    }
}
