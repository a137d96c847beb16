import Foundation
import MVVMClient
import MVVMServer
import MVVMServerTesting
import TestSupport
import Testing

@Suite("Saved state: sessions come back after a restart, from the SQLite state file")
struct SavedStateTests {
    typealias Counter = BoardApp.Counter
    typealias Tally = BoardApp.Tally

    static func server(stateFile: String) -> TestServer {
        var configuration = ApplicationConfiguration()
        configuration.storage = .sqlite(path: stateFile)
        return TestServer(catalogue: BoardApp.catalogue, configuration: configuration)
    }

    @Test(
        "After a restart, a session answers under its old id with its navigation, inputs and saved values; versions go on growing",
        arguments: TestMode.allCases)
    func survivesRestart(mode: TestMode) async throws {
        try await StateFile.withTemporary { file in
            let (id, versions) = try await Self.server(stateFile: file).test(mode) { client in
                let session = try await client.createSession()
                let counter = session.scene("counter", input: Counter.Input.self, output: Counter.Output.self)
                try await counter.setInput(members: ["step": 7])
                let opened = try await counter.perform("open")
                let tally = session.scene("tally", input: NoInput.self, output: Tally.Output.self)
                try await tally.perform("tap")
                let tapped = try await tally.perform("tap")
                #expect(tapped.state.output.taps == 2)
                return (session.id, [opened.state.version, tapped.state.version, try #require(opened.navigation).version])
            }

            try await Self.server(stateFile: file).test(mode) { client in
                let session = client.session(id: id)
                let navigation = try await session.navigation()
                #expect(navigation.stack.map(\.key) == ["counter", "board"])
                #expect(navigation.version > versions.max()!)
                let counter = try await session.scene("counter", input: Counter.Input.self, output: Counter.Output.self).state()
                #expect(counter.input.step == 7)
                #expect(counter.version > versions.max()!)
                let tally = session.scene("tally", input: NoInput.self, output: Tally.Output.self)
                #expect(try await tally.state().output.taps == 2)
                #expect(try await tally.perform("tap").state.output.taps == 3)
            }
        }
    }

    @Test("A long-poll with a version from before the restart is answered at once", arguments: TestMode.allCases)
    func oldVersionAnsweredAtOnce(mode: TestMode) async throws {
        try await StateFile.withTemporary { file in
            let (id, version) = try await Self.server(stateFile: file).test(mode) { client in
                let session = try await client.createSession()
                let state = try await session.scene("counter", input: Counter.Input.self, output: Counter.Output.self).setInput(members: ["step": 3])
                return (session.id, state.version)
            }
            try await Self.server(stateFile: file).test(mode) { client in
                let counter = client.session(id: id).scene("counter", input: Counter.Input.self, output: Counter.Output.self)
                let started = ContinuousClock.now
                let next = try await counter.next(after: version, wait: .seconds(20))
                #expect(ContinuousClock.now - started < .seconds(10))
                #expect(next.version > version)
                #expect(next.input.step == 3)
            }
        }
    }

    @Test("A deleted session stays gone after a restart", arguments: TestMode.allCases)
    func deletedStaysGone(mode: TestMode) async throws {
        try await StateFile.withTemporary { file in
            let id = try await Self.server(stateFile: file).test(mode) { client in
                let session = try await client.createSession()
                try await session.delete()
                return session.id
            }
            try await Self.server(stateFile: file).test(mode) { client in
                let problem = try await #require(throws: ProblemDetails.self) { try await client.session(id: id).navigation() }
                #expect(problem.status == 404)
            }
        }
    }

    @Test("A second server on the same state file is refused, naming the file")
    func secondServerRefused() async throws {
        try await StateFile.withTemporary { file in
            try await Self.server(stateFile: file).test(.live) { _ in
                let error = await #expect(throws: (any Error).self) {
                    try await Self.server(stateFile: file).test(.router) { _ in }
                }
                #expect(String(describing: error).contains(file))
                #expect(String(describing: error).contains("another server is using it"))
            }
        }
    }

    @Test("A state file that is not a database is refused, named, and left untouched")
    func notADatabase() async throws {
        try await StateFile.withTemporary { file in
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let garbage = Data(repeating: 0x42, count: 8192)
            try garbage.write(to: URL(filePath: file))
            let error = await #expect(throws: (any Error).self) {
                try await Self.server(stateFile: file).test(.router) { _ in }
            }
            #expect(String(describing: error).contains(file))
            #expect(try Data(contentsOf: URL(filePath: file)) == garbage)
        }
    }

    @Test("What leaves the store leaves the file: a scene gone back from, then a cleared store", arguments: TestMode.allCases)
    func removalsAreSaved(mode: TestMode) async throws {
        try await StateFile.withTemporary { file in
            let id = try await Self.server(stateFile: file).test(mode) { client in
                let session = try await client.createSession()
                try await session.scene("counter", input: Counter.Input.self, output: Counter.Output.self).setInput(members: ["step": 7])
                try await session.scene("counter", input: Counter.Input.self, output: Counter.Output.self).perform("open")
                #expect(try await session.goBack().stack.map(\.key) == ["counter"])
                return session.id
            }
            try await Self.server(stateFile: file).test(mode) { client in
                let session = client.session(id: id)
                #expect(try await session.summary().entries.map(\.key) == ["counter"])
                #expect(try await session.scene("counter", input: Counter.Input.self, output: Counter.Output.self).state().input.step == 7)
                try await session.clearStore()
            }
            try await Self.server(stateFile: file).test(mode) { (client: MVVMClient) async throws in
                let session = client.session(id: id)
                #expect(try await session.navigation().stack.map(\.key) == ["counter"])
                #expect(try await session.scene("counter", input: Counter.Input.self, output: Counter.Output.self).state().input.step == 1)
            }
        }
    }
}
