import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A response read off a real socket.
public struct TestResponse: Sendable {
    /// The status code.
    public let status: Int
    /// Header fields by lower-cased name.
    public let headers: [String: String]
    /// The body.
    public let body: Data

    /// The body parsed as a JSON object.
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    /// The body as text.
    public var text: String {
        String(decoding: body, as: UTF8.self)
    }
}

/// A small HTTP/1.1 client on blocking POSIX sockets, run on its own thread so that tests
/// never block Swift's cooperative pool (which the server under test needs).
public enum TestHTTPClient {
    /// A test failure with a sentence.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String

        /// Makes a failure.
        public init(description: String) {
            self.description = description
        }
    }

    /// Sends one request with `Connection: close` and reads the whole response. It is sent
    /// with `Host: 127.0.0.1:port` unless `headers` has a `Host` field.
    public static func request(port: Int, _ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil, timeout: Double = 10)
        async throws -> TestResponse
    {
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if !headers.keys.contains(where: { $0.lowercased() == "host" }) { head += "Host: 127.0.0.1:\(port)\r\n" }
        head += "Connection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        var bytes = Data(head.utf8)
        if let body { bytes.append(body) }
        let raw = try await exchange(port: port, chunks: [bytes], timeout: timeout)
        guard let response = parse(raw) else {
            throw Failure(description: "unparseable response: \(String(decoding: raw.prefix(200), as: UTF8.self))")
        }
        return response
    }

    /// A JSON request.
    public static func json(port: Int, _ method: String, _ path: String, _ object: Any, headers: [String: String] = [:]) async throws -> TestResponse
    {
        let body = try JSONSerialization.data(withJSONObject: object)
        return try await request(port: port, method, path, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: body)
    }

    /// Sends raw chunks (pausing `pause` seconds between them) and returns every byte the
    /// server sent until it closed the connection or `timeout` passed.
    public static func exchange(port: Int, chunks: [Data], pause: Double = 0, timeout: Double = 10) async throws -> Data {
        try await onThread {
            let fd = try connect(port: port, timeout: timeout)
            defer { close(fd) }
            for (index, chunk) in chunks.enumerated() {
                if index > 0 && pause > 0 { usleep(UInt32(pause * 1_000_000)) }
                guard sendAll(fd, chunk) else { break }
            }
            return readAll(fd)
        }
    }

    /// Sends raw requests on one connection, each once the answer to the one before has come,
    /// and returns the answers (nil for one that did not come whole within `timeout`).
    public static func inTurn(port: Int, requests: [String], timeout: Double = 10) async throws -> [TestResponse?] {
        try await onThread {
            let fd = try connect(port: port, timeout: timeout)
            defer { close(fd) }
            var answers: [TestResponse?] = []
            for request in requests {
                guard sendAll(fd, Data(request.utf8)) else {
                    answers.append(nil)
                    break
                }
                answers.append(parse(readAll(fd)))
            }
            return answers
        }
    }

    /// Opens a connection and keeps it open (for connection-limit tests); close it with `close`.
    public static func openIdleConnection(port: Int) throws -> Int32 {
        try connect(port: port, timeout: 5)
    }

    /// Whether the server closes a connection (reads EOF or a reset) within `timeout` seconds.
    public static func isClosedByServer(_ fd: Int32, timeout: Double) async -> Bool {
        (try? await onThread { () -> Bool in
            var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            var byte: UInt8 = 0
            let count = recv(fd, &byte, 1, 0)
            return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
        }) ?? false
    }

    /// 127.0.0.1 at a port (0: any free one, when binding).
    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A loopback port bound but never listening, held until the returned socket is closed:
    /// connecting to it is refused, and no server started meanwhile (by a test running in
    /// parallel) can take it, as one could take the port of a server that was stopped.
    public static func unlistenedPort() throws -> (socket: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else {
            close(fd)
            throw Failure(description: "bind failed: \(String(cString: strerror(errno)))")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    static func connect(port: Int, timeout: Double, receiveBuffer: Int? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        if var size = receiveBuffer.map(Int32.init) {
            // Set before connecting, so that the window the server sees is this small.
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect failed: \(String(cString: strerror(errno)))")
        }
        return fd
    }

    /// Sends every byte (in as many calls as it takes); false when the connection fails first.
    public static func sendAll(_ fd: Int32, _ bytes: Data) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            sent += written
        }
        return true
    }

    static func readAll(_ fd: Int32) -> Data {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
            if let response = parse(received), response.body.count >= Int(response.headers["content-length"] ?? "") ?? Int.max { break }
        }
        return received
    }

    /// Parses a response; handles Content-Length and chunked bodies.
    public static func parse(_ data: Data) -> TestResponse? {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            body = dechunk(body)
        }
        return TestResponse(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ data: Data) -> Data {
        var result = Data()
        var rest = data[...]
        while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText, radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            guard rest.distance(from: start, to: rest.endIndex) >= size else { break }
            result.append(rest[start..<rest.index(start, offsetBy: size)])
            rest = rest[rest.index(start, offsetBy: min(size + 2, rest.distance(from: start, to: rest.endIndex)))...]
        }
        return result
    }

    /// Runs blocking work on a new thread and awaits its result.
    public static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}
