import Foundation
import MVVMClient
import MVVMServerTesting
import Testing

@Suite("The Swift client, in-process and live")
struct ClientTests {
    typealias Counter = BoardApp.Counter
    typealias Board = BoardApp.Board

    static let server = TestServer(catalogue: BoardApp.catalogue)

    @Test("Creates a session, reads a scene into the app's types, sends inputs and actions", arguments: TestMode.allCases)
    func drivesAScene(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let session = try await client.createSession()
            let counter = session.scene("counter", input: Counter.Input.self, output: Counter.Output.self)
            let first = try await counter.state()
            #expect(first.scene == "counter")
            #expect(first.output == Counter.Output(count: 0))

            let stepped = try await counter.setInput(members: ["step": 5])
            #expect(stepped.input.step == 5)
            #expect(stepped.version > first.version)
            let incremented = try await counter.perform("increment")
            #expect(incremented.state.output.count == 5)
            #expect(incremented.navigation == nil)

            var whole = Counter.Input()
            whole.step = 2
            try await counter.setInput(whole)
            #expect(try await counter.perform("increment").state.output.count == 7)
        }
    }

    @Test("A refused request throws the server's problem details", arguments: TestMode.allCases)
    func problemDetails(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let session = try await client.createSession()
            let counter = session.scene("counter", input: Counter.Input.self, output: Counter.Output.self)
            await #expect(throws: ProblemDetails.self) { try await counter.setInput(members: ["nope": 1]) }
            do {
                try await counter.setInput(members: ["step": "five"])
                Issue.record("a wrong type was accepted")
            } catch let problem as ProblemDetails {
                #expect(problem.status == 422)
                #expect(problem.kind == "invalid-input")
                #expect(problem.member == "step")
            }
            do {
                _ = try await counter.perform("fly")
                Issue.record("an unknown action was performed")
            } catch let problem as ProblemDetails {
                #expect(problem.status == 404)
                #expect(problem.kind == "action-not-found")
            }
            try await session.delete()
            do {
                _ = try await counter.state()
                Issue.record("a deleted session answered")
            } catch let problem as ProblemDetails {
                #expect(problem.status == 410)
                #expect(problem.kind == "session-gone")
            }
        }
    }

    @Test("A session is resumed by its id, and navigation follows actions and going back", arguments: TestMode.allCases)
    func resumeAndNavigate(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let created = try await client.createSession()
            let session = client.session(id: created.id)
            let start = try await session.navigation()
            #expect(start.stack.map(\.key) == ["counter"])
            #expect(start.top?.presentation == .root)

            let opened = try await session.scene("counter", input: Counter.Input.self, output: Counter.Output.self).perform("open")
            let pushed = try #require(opened.navigation)
            #expect(pushed.stack.map(\.key) == ["counter", "board"])
            #expect(pushed.top?.presentation == .push)
            #expect(pushed.version > start.version)
            #expect(try await session.nextNavigation(after: start.version, wait: .seconds(5)) == pushed)

            let back = try await session.goBack()
            #expect(back.stack.map(\.key) == ["counter"])
            let events = try await session.events(after: pushed.version)
            #expect(events.events.map(\.type).contains("didPop"))
            #expect(!events.missedEvents)
        }
    }

    @Test("next(after:) long-polls for the next version, and updates yields each new state", arguments: TestMode.allCases)
    func longPollAndUpdates(mode: TestMode) async throws {
        try await Self.server.test(mode) { client in
            let session = try await client.createSession()
            let counter = session.scene("counter", input: Counter.Input.self, output: Counter.Output.self)
            let current = try await counter.state()

            async let next = counter.next(after: current.version, wait: .seconds(10))
            try await client.waitUntilParked()
            try await counter.perform("increment")
            #expect(try await next.output.count == 1)

            var seen: [Int] = []
            for try await state in counter.updates(wait: .seconds(10)) {
                seen.append(state.output.count)
                if seen.count == 3 { break }
                try await counter.perform("increment")
            }
            #expect(seen == [1, 2, 3])
        }
    }

    @Test("Events that are no longer kept are read from what the server keeps, not thrown", arguments: TestMode.allCases)
    func expiredEvents(mode: TestMode) async throws {
        var server = Self.server
        server.configuration.eventHistory = 4
        try await server.test(mode) { client in
            let session = try await client.createSession()
            let counter = session.scene("counter", input: Counter.Input.self, output: Counter.Output.self)
            _ = try await counter.state()
            let start = try await session.events()
            for _ in 0..<6 { try await counter.perform("increment") }
            let batch = try await session.events(after: start.version)
            #expect(batch.missedEvents)
            #expect(batch.events.count == 4)
            #expect(batch.version > start.version)
        }
    }
}
