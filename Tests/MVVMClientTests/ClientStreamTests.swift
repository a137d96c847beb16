import Foundation
import MVVMClient
import MVVMServer
import ServerTestSupport
import TestSupport
import Testing

/// The client's scene updates over Server-Sent Events, against a live server: what it reads
/// from the stream, how it ends, and the long-poll it falls back to.
@Suite("The Swift client's updates over Server-Sent Events, live")
struct ClientStreamTests {
    typealias Counter = BoardApp.Counter

    @Test("updates reads one stream: each version in order, the stream open while it reads, and closed after")
    func readsAStream() async throws {
        let server = try await TestApplication(catalogue: BoardApp.catalogue) { $0.http.connectionTimeoutSeconds = 2 }
        let client = MVVMClient(serverURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        let session = try await client.createSession()
        let counter = session.scene("counter", input: Counter.Input.self, output: Counter.Output.self)
        var seen: [Int] = []
        var versions: [UInt64] = []
        for try await state in counter.updates() {
            seen.append(state.output.count)
            versions.append(state.version)
            #expect(try await server.metric("mvvm_open_streams") == 1, "the updates come over one stream")
            #expect(try await server.metric("mvvm_parked_requests") == 1, "and no long-poll")
            if seen.count == 4 { break }
            try await counter.perform("increment")
        }
        #expect(seen == [0, 1, 2, 3])
        #expect(versions == versions.sorted() && Set(versions).count == 4)
        // Leaving the loop closes the stream; the server lets go of it within its connection timeout.
        #expect(try await eventually(within: .seconds(5), every: .milliseconds(50)) { try await server.metric("mvvm_open_streams") == 0 })
        await server.stop()
    }

    @Test("updates over a stream throws session-gone when the session is deleted")
    func goneEndsTheUpdates() async throws {
        let server = try await TestApplication(catalogue: BoardApp.catalogue)
        let client = MVVMClient(serverURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        let session = try await client.createSession()
        let counter = session.scene("counter", input: Counter.Input.self, output: Counter.Output.self)
        var iterator = counter.updates().makeAsyncIterator()
        #expect(try await iterator.next()?.output.count == 0)
        try await session.delete()
        await #expect(throws: ProblemDetails.self) {
            do {
                _ = try await iterator.next()
            } catch let problem as ProblemDetails {
                #expect(problem.kind == "session-gone")
                #expect(problem.status == 410)
                throw problem
            }
        }
        await server.stop()
    }

    @Test("With long-poll delivery, updates opens no stream and parks one long-poll at a time")
    func longPollDelivery() async throws {
        let server = try await TestApplication(catalogue: BoardApp.catalogue)
        let client = MVVMClient(serverURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        let session = try await client.createSession()
        let counter = session.scene("counter", input: Counter.Input.self, output: Counter.Output.self)
        var iterator = counter.updates(wait: .seconds(10), delivery: .longPoll).makeAsyncIterator()
        #expect(try await iterator.next()?.output.count == 0)
        async let next = iterator.next()
        #expect(try await eventually { try await server.metric("mvvm_parked_requests") == 1 })
        #expect(try await server.metric("mvvm_open_streams") == 0)
        try await counter.perform("increment")
        #expect(try await next?.output.count == 1)
        await server.stop()
    }

    @Test("When the stream ends because the server stopped, updates falls back to a long-poll, which reports the server gone")
    func streamEndFallsBack() async throws {
        let server = try await TestApplication(catalogue: BoardApp.catalogue)
        let client = MVVMClient(serverURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        let session = try await client.createSession()
        let counter = session.scene("counter", input: Counter.Input.self, output: Counter.Output.self)
        var iterator = counter.updates(wait: .seconds(5)).makeAsyncIterator()
        #expect(try await iterator.next()?.output.count == 0)
        #expect(try await server.metric("mvvm_open_streams") == 1)
        await server.stop()
        let started = ContinuousClock.now
        await #expect(throws: (any Error).self) { _ = try await iterator.next() }
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
