import Foundation
import GRDB
import Logging
import MVVMClient
import MVVMServer
import MVVMServerTesting
import ServerTestSupport
import TestSupport
import Testing

@testable import MVVMSQLite

@Suite("Saved state when the app or the file is not what was saved")
struct SavedStateFaultTests {
    /// The counter of a later version of the app: its `step` is now a string, so the saved one
    /// (a number) no longer decodes.
    final class TextCounter: ViewModel {
        struct Input: ViewModelInput {
            var step = "one"
            init() {}
        }

        struct Output: Codable, Sendable, Equatable {
            var count = 0
        }

        var input = Input()
        private(set) var output = Output()
    }

    static let laterCatalogue = SceneCatalogue(
        scenes: [
            Scene("counter", key: "counter", viewModel: TextCounter.self, factory: SingleViewModelFactory { _ in TextCounter() }),
            Scene("board", key: "board", viewModel: BoardApp.Board.self, factory: SingleViewModelFactory { _ in BoardApp.Board() }),
            Scene(
                "tally", key: "tally", viewModel: BoardApp.Tally.self,
                factory: SingleViewModelFactory { extras in BoardApp.Tally(scope: extras.scope) }),
        ],
        rootKey: "counter")

    @Test(
        "A saved input that no longer decodes starts that view model fresh, with a warning; the rest of the session is restored",
        arguments: TestMode.allCases)
    func inputNoLongerDecodes(mode: TestMode) async throws {
        try await StateFile.withTemporary { file in
            let id = try await SavedStateTests.server(stateFile: file).test(mode) { client in
                let session = try await client.createSession()
                try await session.scene("counter", input: BoardApp.Counter.Input.self, output: BoardApp.Counter.Output.self).setInput(members: [
                    "step": 7
                ])
                try await session.scene("tally", input: NoInput.self, output: BoardApp.Tally.Output.self).perform("tap")
                return session.id
            }

            let lines = CapturedLogLines()
            var configuration = ApplicationConfiguration()
            configuration.storage = .sqlite(path: file)
            let later = TestServer(
                catalogue: Self.laterCatalogue, configuration: configuration,
                logger: Logger(label: "test") { _ in CapturingLogHandler(lines: lines) })
            try await later.test(mode) { client in
                let session = client.session(id: id)
                let counter = try await session.scene("counter", input: TextCounter.Input.self, output: TextCounter.Output.self).state()
                #expect(counter.input.step == "one")
                #expect(try await session.scene("tally", input: NoInput.self, output: BoardApp.Tally.Output.self).state().output.taps == 1)
            }
            let warnings = lines.all.filter { $0.level == .warning }.map(\.message)
            #expect(warnings.contains { $0.contains("saved input of 'counter' no longer decodes") }, "warnings: \(warnings)")
        }
    }

    @Test("--state-sync full makes every commit wait for the disk (synchronous=FULL); the default is NORMAL in WAL mode")
    func synchronousSetting() async throws {
        try await StateFile.withTemporary { file in
            let normal = try SQLiteStateStore(path: file)
            #expect(try normal.synchronousSetting() == 1)
            await normal.close()
            let full = try SQLiteStateStore(path: file, synchronous: .full)
            #expect(try full.synchronousSetting() == 2)
            await full.close()
        }
    }

    @Test("A state file written by a later version (a newer schema) is refused at start, named, and left untouched")
    func newerSchema() async throws {
        try await StateFile.withTemporary { file in
            try await SQLiteStateStore(path: file).close()
            // A later version's migration, as it would have recorded it.
            let queue = try DatabaseQueue(path: file)
            try await queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-a-later-version')") }
            try queue.close()
            let before = try Data(contentsOf: URL(filePath: file))

            let error = await #expect(throws: (any Error).self) {
                try await SavedStateTests.server(stateFile: file).test(.router) { _ in }
            }
            #expect(String(describing: error).contains(file))
            #expect(String(describing: error).contains("newer"))
            #expect(try Data(contentsOf: URL(filePath: file)) == before)
        }
    }

    @Test("A session only read since its last save has its last use saved by the sweeper, so that its expiry counts from it after a restart")
    func readsAreSavedAsUses() async throws {
        try await StateFile.withTemporary { file in
            let server = try await TestApplication(catalogue: BoardApp.catalogue) { $0.storage = .sqlite(path: file) }
            let id = try await server.createSession()
            let reader = try DatabaseQueue(
                path: file,
                configuration: {
                    var c = Configuration()
                    c.readonly = true
                    return c
                }())
            let lastUsed = {
                try reader.read { db in try Int64.fetchOne(db, sql: "SELECT lastUsed FROM session WHERE id = ?", arguments: [id]) ?? 0 }
            }
            let saved = try lastUsed()

            await server.app.persistUses()
            #expect(try lastUsed() == saved, "nothing read: nothing to save")

            try await Task.sleep(for: .milliseconds(50))
            #expect(try await server.request("GET", "/sessions/\(id)/navigation").status == 200)
            await server.app.persistUses()
            #expect(try lastUsed() >= saved + 40)
            try reader.close()
            await server.stop()
        }
    }
}
