import Foundation

/// Makes API requests with a retry count, a timeout per attempt, a total deadline and
/// decoding (SWAPI MVVM's `ApiSession`). Only transient failures are retried
/// (see ``ApiError/isTransient``), with a short growing pause between attempts.
public struct ApiSession: Sendable {
    /// How requests are retried and timed.
    public struct Policy: Sendable {
        /// Attempts after the first.
        public var retries: Int = 2
        /// The longest one attempt may take.
        public var timeout: Duration = .seconds(5)
        /// The longest all attempts together may take.
        public var deadline: Duration = .seconds(12)
        /// The pause before the first retry; doubled for each further one.
        public var backoff: Duration = .milliseconds(50)

        /// The defaults.
        public init() {}
    }

    /// Where the bytes come from.
    public let transport: any ApiTransport
    /// The retry and timeout policy.
    public let policy: Policy
    /// The clock that times attempts, pauses and the deadline.
    public let clock: any Clock<Duration>

    /// Makes a session; its pauses, timeouts and deadline run on `clock`.
    public init(transport: any ApiTransport, policy: Policy = Policy(), clock: any Clock<Duration> = ContinuousClock()) {
        self.transport = transport
        self.policy = policy
        self.clock = clock
    }

    /// Fetches `path` and decodes its JSON (snake_case keys) as `Value`.
    public func get<Value: Decodable & Sendable>(_ path: String, as type: Value.Type = Value.self) async throws -> Value {
        let body = try await fetch(path)
        do {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(type, from: body)
        } catch {
            throw ApiError.decoding(String(describing: type))
        }
    }

    /// Fetches the body of `path`, retrying transient failures within the deadline.
    public func fetch(_ path: String) async throws -> Data {
        let clock = SessionClock(self.clock)
        var pause = policy.backoff
        var attempt = 0
        while true {
            try Task.checkCancellation()
            let remaining = policy.deadline - clock.elapsed()
            let error: ApiError
            do {
                let (status, body) = try await attemptFetch(path, timeout: min(policy.timeout, remaining), clock: clock)
                guard (200..<300).contains(status) else { throw ApiError.status(status) }
                return body
            } catch let failure as ApiError {
                error = failure
            }
            attempt += 1
            guard error.isTransient, attempt <= policy.retries else { throw error }
            guard clock.elapsed() + pause < policy.deadline else { throw ApiError.deadlineExceeded(lastError: error.description) }
            try await clock.sleep(pause)
            pause *= 2
        }
    }

    private func attemptFetch(_ path: String, timeout: Duration, clock: SessionClock) async throws -> (Int, Data) {
        guard timeout > .zero else { throw ApiError.timedOut }
        let transport = self.transport
        return try await withThrowingTaskGroup(of: (Int, Data)?.self) { group in
            group.addTask { try await transport.fetch(path) }
            group.addTask {
                try await clock.sleep(timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else { throw ApiError.timedOut }
            return result
        }
    }
}
