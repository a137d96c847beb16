import Foundation
import MVVMClient
import MVVMServer
import MVVMServerTesting
import Testing

/// The client's testing tools: settling (every server), and the test clock and recreate of
/// testing mode.
@Suite("The Swift client's testing tools, in-process and live")
struct ClientTestingToolsTests {
    static let server: TestServer = {
        var configuration = ApplicationConfiguration()
        configuration.testing = true
        return TestServer(catalogue: BoardApp.catalogue, configuration: configuration)
    }()

    @Test("settled() waits for a launched task; the versions it reports are the documents'", arguments: TestMode.allCases)
    func settles(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let session = try await client.createSession()
            let ticker = session.scene("ticker", input: EmptyInput.self, output: BoardApp.Ticker.Output.self)
            _ = try await ticker.perform("start")
            let result = try await session.settled(wait: .seconds(10))
            #expect(result.settled)
            #expect(!result.waitingForClock)
            let state = try await ticker.state()
            #expect(state.output.ticks == 1, "the launched task's change is published by the time the session settles")
            #expect(result.sceneVersions["ticker"] == state.version)
        }
    }

    @Test("The test clock moves only when advanced", arguments: TestMode.allCases)
    func clock(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let start = try await client.testClock()
            #expect(start.settled == nil)
            let moved = try await client.advanceClock(by: .milliseconds(2500))
            #expect(moved.now == start.now + .milliseconds(2500))
            #expect(moved.settled == true)
            #expect(try await client.testClock().now == moved.now)
            await #expect(throws: ProblemDetails.self) { try await client.advanceClock(by: .seconds(-1)) }
        }
    }

    @Test("A session's clock moves alone: another session's stays, and the server-wide move moves both", arguments: TestMode.allCases)
    func sessionClock(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let first = try await client.createSession()
            let second = try await client.createSession()
            let moved = try await first.advanceClock(by: .seconds(3))
            #expect(moved.now == .seconds(3))
            #expect(moved.settled == true)
            #expect(try await second.clock().now == .zero)
            _ = try await client.advanceClock(by: .seconds(1))
            #expect(try await first.clock().now == .seconds(4))
            #expect(try await second.clock().now == .seconds(1))
            await #expect(throws: ProblemDetails.self) { try await first.advanceClock(by: .seconds(-1)) }
        }
    }

    @Test("recreate() reports the count kept only in an output, and nothing for a saved one", arguments: TestMode.allCases)
    func recreate(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let session = try await client.createSession()
            let counter = session.scene("counter", input: BoardApp.Counter.Input.self, output: BoardApp.Counter.Output.self)
            let tally = session.scene("tally", input: EmptyInput.self, output: BoardApp.Tally.Output.self)
            _ = try await counter.perform("increment")
            _ = try await tally.perform("tap")
            let report = try await session.recreate()
            #expect(report.settled)
            #expect(report.scenes.map(\.key).sorted() == ["counter", "tally"])
            #expect(report.losses == ["counter": ["output.count"]])
            #expect(try await tally.state().output.taps == 1)
        }
    }

    @Test("journal() exports what changed the session; replay() reproduces it, and names an edited answer's divergence", arguments: TestMode.allCases)
    func journalAndReplay(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let session = try await client.createSession()
            let counter = session.scene("counter", input: BoardApp.Counter.Input.self, output: BoardApp.Counter.Output.self)
            try await counter.setInput(members: ["step": 4])
            _ = try await counter.perform("increment")
            var journal = try await session.journal()
            #expect(journal.session == session.id)
            #expect(journal.entries.map(\.path) == ["/scenes/counter/input", "/scenes/counter/actions/increment"])
            #expect(journal.entries.map(\.status) == [200, 200])

            let replayed = try await client.replay(journal)
            #expect(replayed.divergence == nil)
            #expect(replayed.steps == 2)
            #expect(
                try await replayed.session.scene("counter", input: BoardApp.Counter.Input.self, output: BoardApp.Counter.Output.self).state().output
                    .count == 4)

            let answer = String(decoding: journal.entries[1].answer, as: UTF8.self)
            journal.entries[1].answer = Data(answer.replacingOccurrences(of: "\"count\":4", with: "\"count\":5").utf8)
            let diverged = try await client.replay(journal)
            #expect(diverged.divergence?.seq == 2)
            #expect(diverged.divergence?.members == ["answer.output.count"])
            #expect(diverged.divergence?.actualStatus == 200)

            let script = try await session.journalScript()
            #expect(script.hasPrefix("#!/bin/sh"))
            #expect(script.contains("/scenes/counter/actions/increment"))
        }
    }
}
