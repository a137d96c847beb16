import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Opens Server-Sent Events streams of a server over `URLSession`, reading each as its bytes
/// arrive (a data task with a delegate: swift-openapi-urlsession reads a whole body first on
/// Linux, which a stream never ends).
struct EventStreamOpener: Sendable {
    /// What a stream request was answered.
    enum Answer: Sendable {
        /// A stream: its body's bytes as they arrive (cancel the reading task to close it).
        case stream(AsyncThrowingStream<ArraySlice<UInt8>, any Error>)
        /// An answer that is not a stream: its status and body (the server streams nothing there).
        case document(status: Int, body: Data)
    }

    let serverURL: URL
    /// How long a stream may stay silent before it is given up: above the server's heartbeat
    /// interval (15 seconds by default).
    let idleTimeout: Duration

    /// Opens `GET path` with `Accept: text/event-stream` and, when given, `Last-Event-ID`.
    func open(path: String, lastEventID: UInt64?) async throws -> Answer {
        guard let url = URL(string: serverURL.absoluteString.trimmingSuffix("/") + path) else {
            throw URLError(.badURL)
        }
        var request = URLRequest(url: url)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        if let lastEventID { request.setValue(String(lastEventID), forHTTPHeaderField: "Last-Event-ID") }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Double(idleTimeout.components.seconds)
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        let reader = EventStreamReader()
        let session = URLSession(configuration: configuration, delegate: reader, delegateQueue: nil)
        return try await reader.start(session.dataTask(with: request), in: session)
    }
}

/// The delegate of one stream's data task: hands its head to the opener, then its bytes to
/// the stream as they arrive.
private final class EventStreamReader: NSObject, URLSessionDataDelegate, Sendable {
    /// Where the answer stands.
    private enum Phase {
        /// Waiting for the response head.
        case waiting(CheckedContinuation<EventStreamOpener.Answer, any Error>)
        /// A stream: bytes go to its continuation.
        case streaming(AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation)
        /// Not a stream: its body is collected (up to a limit) until the task completes.
        case collecting(status: Int, body: Data, CheckedContinuation<EventStreamOpener.Answer, any Error>)
        case done
    }

    /// The most bytes of an answer that is not a stream.
    private static let maxDocumentBytes = 1 << 20

    private let phase = Mutex<Phase>(.done)

    /// Starts the task; returns once its head has come.
    func start(_ task: URLSessionDataTask, in session: URLSession) async throws -> EventStreamOpener.Answer {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                phase.withLock { $0 = .waiting(continuation) }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        let isStream = status == 200 && (http?.value(forHTTPHeaderField: "Content-Type") ?? "").lowercased().hasPrefix("text/event-stream")
        let opened: (CheckedContinuation<EventStreamOpener.Answer, any Error>, AsyncThrowingStream<ArraySlice<UInt8>, any Error>)? = phase.withLock {
            phase in
            guard case .waiting(let continuation) = phase else { return nil }
            guard isStream else {
                phase = .collecting(status: status, body: Data(), continuation)
                return nil
            }
            let (stream, bytes) = AsyncThrowingStream.makeStream(of: ArraySlice<UInt8>.self, throwing: (any Error).self)
            bytes.onTermination = { _ in
                dataTask.cancel()
                session.invalidateAndCancel()
            }
            phase = .streaming(bytes)
            return (continuation, stream)
        }
        completionHandler(.allow)
        if let (continuation, stream) = opened { continuation.resume(returning: .stream(stream)) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        phase.withLock { phase in
            switch phase {
            case .streaming(let bytes):
                bytes.yield(ArraySlice(data))
            case .collecting(let status, var body, let continuation):
                if body.count < Self.maxDocumentBytes { body.append(data.prefix(Self.maxDocumentBytes - body.count)) }
                phase = .collecting(status: status, body: body, continuation)
            case .waiting, .done:
                break
            }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let ended = phase.withLock { phase -> Phase in
            defer { phase = .done }
            return phase
        }
        switch ended {
        case .waiting(let continuation):
            continuation.resume(throwing: error ?? URLError(.badServerResponse))
        case .streaming(let bytes):
            bytes.finish(throwing: error)
        case .collecting(let status, let body, let continuation):
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: .document(status: status, body: body)) }
        case .done:
            break
        }
        session.finishTasksAndInvalidate()
    }
}

extension String {
    /// The string without `suffix` at its end, when it ends with it.
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
