import Foundation
import MVVMServer
import ServerTestSupport
import TestSupport
import Testing

@testable import MVVMSQLite

@Suite("Saved state when writes fail: a full disk, refused writes")
struct SavedStateWriteFaultTests {
    /// The board's input with `count` rows of `titleLength` characters each.
    static func rows(_ count: Int, titleLength: Int = 10) -> [String: Any] {
        ["rows": (0..<count).map { ["id": "r\($0)", "section": "s", "title": String(repeating: "t", count: titleLength), "done": false] }]
    }

    /// A 503 problem with `Retry-After`.
    static func expectUnavailable(_ response: TestResponse, _ comment: Comment) {
        #expect(response.status == 503, "\(comment): \(response.text)")
        #expect(response.headers["retry-after"] == "1", comment)
        #expect(response.headers["content-type"] == "application/problem+json", comment)
    }

    /// What a client can see of a session: the board's and the tally's states (with versions),
    /// the navigation and the events.
    static func visible(_ server: TestApplication, _ id: String) async throws -> [String] {
        var seen: [String] = []
        for path in ["scenes/board", "scenes/tally", "navigation", "events"] {
            let response = try await server.request("GET", "/sessions/\(id)/\(path)")
            #expect(response.status == 200, "\(path): \(response.text)")
            seen.append(response.text)
        }
        return seen
    }

    static func store(of server: TestApplication) throws -> SQLiteStateStore {
        try #require(server.app.savedSessions as? SQLiteStateStore)
    }

    @Test(
        "On a full disk (max_page_count), an input answers 503 with Retry-After and changes nothing a client sees, a parked long-poll included; reads go on; once the disk has room, the input is saved and survives a restart"
    )
    func diskFull() async throws {
        try await StateFile.withTemporary { file in
            let server = try await TestApplication(catalogue: BoardApp.catalogue) { $0.storage = .sqlite(path: file) }
            let id = try await server.createSession()
            #expect(try await server.json("POST", "/sessions/\(id)/scenes/board/input", Self.rows(1)).status == 200)
            #expect(try await server.json("POST", "/sessions/\(id)/scenes/tally/actions/tap", [:]).status == 200)
            let before = try await Self.visible(server, id)
            let board = try await server.request("GET", "/sessions/\(id)/scenes/board")
            let version = try #require(board.json["version"] as? Int)
            // A long-poll parked on the board must not be woken by a change that does not hold.
            async let parked = server.request("GET", "/sessions/\(id)/scenes/board?since=\(version)&wait=1")
            try await server.waitUntilParked()

            try Self.store(of: server).simulate(.diskFull)
            // Rows long enough to need pages the file cannot have.
            Self.expectUnavailable(try await server.json("POST", "/sessions/\(id)/scenes/board/input", Self.rows(40, titleLength: 2_000)), "input")
            let afterInput = try await Self.visible(server, id)
            #expect(afterInput == before)
            let woken = try await parked
            #expect(woken.json["version"] as? Int == version, "the parked long-poll saw \(woken.text)")

            // The next attempt fails the same way, with nothing left behind by the first.
            Self.expectUnavailable(
                try await server.json("POST", "/sessions/\(id)/scenes/board/input", Self.rows(40, titleLength: 2_000)), "input again")
            try #expect(await Self.visible(server, id) == before)

            try Self.store(of: server).simulate(nil)
            let saved = try await server.json("POST", "/sessions/\(id)/scenes/board/input", Self.rows(40, titleLength: 2_000))
            #expect(saved.status == 200, "\(saved.text)")
            #expect((saved.json["output"] as? [String: Any])?["count"] as? Int == 40)
            #expect(try #require(saved.json["version"] as? Int) > version)
            await server.stop()

            let restarted = try await TestApplication(catalogue: BoardApp.catalogue) { $0.storage = .sqlite(path: file) }
            let board2 = try await restarted.request("GET", "/sessions/\(id)/scenes/board")
            #expect((board2.json["output"] as? [String: Any])?["count"] as? Int == 40)
            await restarted.stop()
        }
    }

    @Test(
        "When writes are refused, actions, navigation, a store clear, creation and deletion answer 503 and change nothing; afterwards each works and is saved"
    )
    func writesRefused() async throws {
        try await StateFile.withTemporary { file in
            let server = try await TestApplication(catalogue: BoardApp.catalogue) { $0.storage = .sqlite(path: file) }
            let id = try await server.createSession()
            #expect(try await server.json("POST", "/sessions/\(id)/scenes/board/input", Self.rows(2)).status == 200)
            #expect(try await server.json("POST", "/sessions/\(id)/scenes/tally/actions/tap", [:]).status == 200)
            let before = try await Self.visible(server, id)

            try Self.store(of: server).simulate(.writesRefused)
            Self.expectUnavailable(try await server.json("POST", "/sessions/\(id)/scenes/tally/actions/tap", [:]), "action")
            try #expect(await Self.visible(server, id) == before)
            Self.expectUnavailable(try await server.json("POST", "/sessions/\(id)/scenes/counter/actions/open", [:]), "navigation")
            try #expect(await Self.visible(server, id) == before)
            Self.expectUnavailable(try await server.request("DELETE", "/sessions/\(id)/store"), "store clear")
            try #expect(await Self.visible(server, id) == before)
            Self.expectUnavailable(try await server.request("DELETE", "/sessions/\(id)"), "deletion")
            try #expect(await Self.visible(server, id) == before)
            let created = try await server.request("POST", "/sessions")
            Self.expectUnavailable(created, "creation")
            #expect(try await server.request("GET", "/health").status == 200)
            #expect(
                try await server.request("GET", "/metrics").text.contains("mvvm_sessions_live 1.0"), "the session that could not be saved is not live"
            )

            try Self.store(of: server).simulate(nil)
            let tapped = try await server.json("POST", "/sessions/\(id)/scenes/tally/actions/tap", [:])
            #expect((tapped.json["output"] as? [String: Any])?["taps"] as? Int == 2, "the refused tap did not count: \(tapped.text)")
            #expect(try await server.json("POST", "/sessions/\(id)/scenes/counter/actions/open", [:]).status == 200)
            let other = try await server.createSession()
            #expect(try await server.request("DELETE", "/sessions/\(other)").status == 204)
            await server.stop()

            let restarted = try await TestApplication(catalogue: BoardApp.catalogue) { $0.storage = .sqlite(path: file) }
            let tally = try await restarted.request("GET", "/sessions/\(id)/scenes/tally")
            #expect((tally.json["output"] as? [String: Any])?["taps"] as? Int == 2)
            let navigation = try await restarted.request("GET", "/sessions/\(id)/navigation")
            #expect(navigation.text.contains("\"board\""), "\(navigation.text)")
            #expect(try await restarted.request("GET", "/sessions/\(other)").status == 404)
            await restarted.stop()
        }
    }
}
