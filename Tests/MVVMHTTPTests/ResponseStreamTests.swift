import Foundation
import Synchronization
import Testing

@testable import MVVMHTTP

/// The runtime's streamed body on its own: what it sends, when it lets go, and the in-process
/// exchange's reading of it.
@Suite("A streamed response body")
struct ResponseStreamTests {
    /// A producer that sends the messages queued in it, then has nothing new.
    final class Messages: Sendable {
        let queued = Mutex<[String]>([])
        let finished = Atomic<Int>(0)

        func next() -> ResponseStream.Next {
            queued.withLock { $0.isEmpty ? .nothingNew : .message(Data($0.removeFirst().utf8)) }
        }

        func stream() -> ResponseStream {
            ResponseStream(heartbeat: Data(": beat\n".utf8), producer: { self.next() }, onFinish: { self.finished.add(1, ordering: .relaxed) })
        }
    }

    /// A link whose connection is only counted: suspensions, and whether the stream was released.
    final class CountingLink: ResponseStream.Link {
        let suspensions = Atomic<Int>(0)
        let releases = Atomic<Int>(0)

        func suspend() { suspensions.add(1, ordering: .relaxed) }
        func resume() {}
        func isClientThere() -> Bool { true }
        func countSuspended(_ change: Int) {}
        func released(_ stream: ResponseStream) { releases.add(1, ordering: .relaxed) }
    }

    @Test("A stream that is never queued on a connection (its client went away first) is let go of once, when freed")
    func neverQueued() {
        let messages = Messages()
        do {
            let response = HTTPResponse.streaming(messages.stream(), headers: [])
            #expect(response.stream != nil)
        }
        #expect(messages.finished.load(ordering: .relaxed) == 1)
    }

    @Test("Without a connection, the stream's available messages are taken in order and the stream is let go of")
    func takeAvailable() {
        let messages = Messages()
        messages.queued.withLock { $0 = ["a\n\n", "b\n\n"] }
        let stream = messages.stream()
        #expect(String(decoding: stream.takeAvailable(), as: UTF8.self) == "a\n\nb\n\n")
        #expect(stream.isFinished)
        #expect(messages.finished.load(ordering: .relaxed) == 1)
        stream.finish()
        #expect(messages.finished.load(ordering: .relaxed) == 1, "finished once")
    }

    @Test("fill copies a message across calls with a small buffer, then sends the heartbeat when nothing is new")
    func fillsAcrossCalls() {
        let messages = Messages()
        messages.queued.withLock { $0 = ["0123456789"] }
        let stream = messages.stream()
        let link = CountingLink()
        stream.attach(link, ending: nil)
        var buffer = [UInt8](repeating: 0, count: 4)
        var sent = ""
        func fill() -> ResponseStream.Fill {
            buffer.withUnsafeMutableBytes { raw in
                let fill = stream.fill(raw)
                if case .copied(let count) = fill { sent += String(decoding: raw.prefix(count), as: UTF8.self) }
                return fill
            }
        }
        #expect(fill() == .copied(4))
        #expect(fill() == .copied(4))
        #expect(fill() == .copied(2))
        #expect(sent == "0123456789")
        #expect(fill() == .suspended)
        #expect(link.suspensions.load(ordering: .relaxed) == 1)
        stream.requestHeartbeat()
        sent = ""
        while case .copied = fill() {}
        #expect(sent == ": beat\n")
        stream.end(.clean)
        #expect(fill() == .ended)
        stream.finish()
        #expect(messages.finished.load(ordering: .relaxed) == 1)
        #expect(link.releases.load(ordering: .relaxed) == 1, "the link is told once")
        stream.finish()
        #expect(link.releases.load(ordering: .relaxed) == 1)
    }

    @Test("A wake while the producer is being asked is not lost: the stream asks again instead of suspending")
    func wakeDuringTheCall() {
        let calls = Atomic<Int>(0)
        let holder = Mutex<ResponseStream?>(nil)
        let stream = ResponseStream(
            heartbeat: Data(),
            producer: {
                // The first call is woken while it runs (a publish on another thread).
                if calls.add(1, ordering: .relaxed).newValue == 1 { holder.withLock { $0 }?.wake() }
                return .nothingNew
            }, onFinish: {})
        holder.withLock { $0 = stream }
        stream.attach(CountingLink(), ending: nil)
        var buffer = [UInt8](repeating: 0, count: 16)
        let fill = buffer.withUnsafeMutableBytes { stream.fill($0) }
        #expect(fill == .suspended)
        #expect(calls.load(ordering: .relaxed) == 2)
        holder.withLock { $0 = nil }
        stream.finish()
    }
}
