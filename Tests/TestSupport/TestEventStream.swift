import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One Server-Sent Events message as a client reads it.
public struct TestEvent: Sendable {
    /// The `id:` line, when there was one.
    public let id: String?
    /// The `event:` line.
    public let event: String
    /// The `data:` lines, joined by line feeds.
    public let data: String
    /// How many `data:` lines the message had.
    public let dataLines: Int

    /// The data parsed as a JSON object.
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:]
    }
}

/// A Server-Sent Events stream read off a real socket: opens the GET, reads the response head,
/// then gives the stream's messages one at a time (its chunked body decoded as it arrives).
public actor TestEventStream {
    /// The status of the answer.
    public let status: Int
    /// The answer's header fields, by lower-cased name.
    public let headers: [String: String]
    /// Heartbeat comment lines read so far.
    public private(set) var comments = 0
    /// Whether the stream's end (its last chunk, or the connection's end) was read.
    public private(set) var isEnded = false
    /// Whether the stream ended with its last chunk (a clean end, not a closed connection).
    public private(set) var endedCleanly = false

    private let socket: Int32
    /// Bytes read and not decoded yet (chunked framing).
    private var raw: Data
    /// Decoded body bytes not parsed into messages yet.
    private var text = Data()
    private var isChunked: Bool
    private var isClosed = false

    /// Opens a stream: `GET path` with `headers`, `Host: 127.0.0.1` and
    /// `Accept: text/event-stream` unless they have a `Host` or an `Accept` field.
    /// `receiveBuffer` sets the socket's receive buffer (a client that reads slowly); `version`
    /// is the request's HTTP version (an HTTP/1.0 client is answered without chunks).
    public init(
        port: Int, path: String, headers: [String: String] = [:], timeout: Double = 10, receiveBuffer: Int? = nil, version: String = "HTTP/1.1"
    ) async throws {
        let fd = try TestHTTPClient.connect(port: port, timeout: timeout, receiveBuffer: receiveBuffer)
        var request = "GET \(path) \(version)\r\n"
        if !headers.keys.contains(where: { $0.lowercased() == "host" }) { request += "Host: 127.0.0.1\r\n" }
        if !headers.keys.contains(where: { $0.lowercased() == "accept" }) { request += "Accept: text/event-stream\r\n" }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        guard TestHTTPClient.sendAll(fd, Data(request.utf8)) else {
            Glibc.close(fd)
            throw TestHTTPClient.Failure(description: "the request could not be sent")
        }
        var received = Data()
        while received.range(of: Data("\r\n\r\n".utf8)) == nil {
            let bytes = try await Self.receive(fd).bytes
            guard !bytes.isEmpty else {
                Glibc.close(fd)
                throw TestHTTPClient.Failure(description: "the connection closed before the response head")
            }
            received.append(bytes)
        }
        let end = received.range(of: Data("\r\n\r\n".utf8))!
        guard let head = TestHTTPClient.parse(Data(received[..<end.upperBound])) else {
            Glibc.close(fd)
            throw TestHTTPClient.Failure(description: "malformed response head")
        }
        socket = fd
        status = head.status
        self.headers = head.headers
        raw = Data(received[end.upperBound...])
        isChunked = head.headers["transfer-encoding"]?.lowercased() == "chunked"
    }

    /// The next message, or `nil` when the stream ended (or `timeout` seconds passed without one).
    public func next(timeout: Double = 10) async throws -> TestEvent? {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while true {
            decode()
            if let event = parseMessage() { return event }
            if isEnded || ContinuousClock.now >= deadline { return nil }
            let received = try await Self.receive(socket, timeout: min(1, timeout))
            if received.ended { isEnded = true }
            raw.append(received.bytes)
        }
    }

    /// The body of an answer that is not a stream (read whole, up to its length or its end).
    public func body(timeout: Double = 5) async throws -> Data {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        let length = headers["content-length"].flatMap { Int($0) }
        while !isEnded, ContinuousClock.now < deadline {
            decode()
            if let length, text.count >= length { break }
            let received = try await Self.receive(socket, timeout: 0.5)
            if received.ended { isEnded = true }
            raw.append(received.bytes)
        }
        if !isChunked {
            text.append(raw)
            raw.removeAll()
        }
        return text
    }

    /// Waits until the server ends the stream (or closes the connection); `false` when it did
    /// not within `timeout` seconds. Messages left unread are dropped.
    public func waitForEnd(timeout: Double) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while !isEnded, ContinuousClock.now < deadline {
            decode()
            _ = parseMessage()
            let received = try await Self.receive(socket, timeout: 0.5)
            if received.ended { isEnded = true }
            raw.append(received.bytes)
            decode()
        }
        return isEnded
    }

    /// Closes the connection (the client goes away).
    public func close(resetting: Bool = false) {
        guard !isClosed else { return }
        isClosed = true
        if resetting {
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        }
        Glibc.close(socket)
    }

    /// Moves whole chunks from `raw` to `text`; notes the last chunk.
    private func decode() {
        guard isChunked else {
            text.append(raw)
            raw.removeAll()
            return
        }
        while let lineEnd = raw.range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: raw[raw.startIndex..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else { return }
            if size == 0 {
                isEnded = true
                endedCleanly = true
                raw.removeAll()
                return
            }
            let start = lineEnd.upperBound
            guard raw.distance(from: start, to: raw.endIndex) >= size + 2 else { return }
            text.append(raw[start..<raw.index(start, offsetBy: size)])
            raw = Data(raw[raw.index(start, offsetBy: size + 2)...])
        }
    }

    /// Takes one whole message off `text`, counting the comments before it.
    private func parseMessage() -> TestEvent? {
        while let end = text.range(of: Data("\n\n".utf8)) ?? commentOnly() {
            let block = String(decoding: text[text.startIndex..<end.lowerBound], as: UTF8.self)
            text = Data(text[end.upperBound...])
            var id: String?
            var event = "message"
            var data: [String] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") {
                    comments += 1
                } else if line.hasPrefix("id: ") {
                    id = String(line.dropFirst(4))
                } else if line.hasPrefix("event: ") {
                    event = String(line.dropFirst(7))
                } else if line.hasPrefix("data: ") {
                    data.append(String(line.dropFirst(6)))
                }
            }
            if !data.isEmpty { return TestEvent(id: id, event: event, data: data.joined(separator: "\n"), dataLines: data.count) }
        }
        return nil
    }

    /// The end of a leading comment line, when the text starts with one (heartbeats are single
    /// comment lines, not followed by an empty line).
    private func commentOnly() -> Range<Data.Index>? {
        guard text.first == UInt8(ascii: ":"), let lineEnd = text.firstIndex(of: 0x0A) else { return nil }
        return lineEnd..<text.index(after: lineEnd)
    }

    /// Reads what has arrived, waiting at most `timeout` seconds: no bytes on a timeout, or at
    /// the connection's end (then `ended`).
    private static func receive(_ fd: Int32, timeout: Double = 10) async throws -> (bytes: Data, ended: Bool) {
        try await TestHTTPClient.onThread { () -> (Data, Bool) in
            var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 { return (Data(buffer[0..<count]), false) }
            if count == 0 { return (Data(), true) }
            return (Data(), errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        }
    }
}
