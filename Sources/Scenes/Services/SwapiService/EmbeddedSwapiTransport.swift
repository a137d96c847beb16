import Foundation
import Synchronization

/// Serves the SWAPI data set shipped with the app (films, people, planets as SWAPI's own JSON),
/// answering the same paths as SWAPI: `films/`, `films/1/`, `people/`, `planets/8/`…
/// An artificial latency makes the loading state visible; failing first requests make the
/// retries visible.
public struct EmbeddedSwapiTransport: ApiTransport {
    /// The pause before each answer, on ``clock``.
    public let latency: Duration
    /// The clock the latency is waited on.
    public let clock: any Clock<Duration>
    /// How many of the first requests still answer 503, as an overloaded SWAPI would.
    private let failuresLeft: FailureCount

    /// Makes the transport: each answer comes `latency` after its request, on `clock`, and the
    /// first `failingFirst` requests answer 503.
    public init(latency: Duration = .zero, clock: any Clock<Duration> = ContinuousClock(), failingFirst: Int = 0) {
        self.latency = latency
        self.clock = clock
        failuresLeft = FailureCount(max(0, failingFirst))
    }

    /// The failures still to answer, shared by the copies of a transport.
    private final class FailureCount: Sendable {
        let left: Atomic<Int>
        init(_ count: Int) { left = Atomic(count) }

        /// Takes one failure; `false` when none is left.
        func take() -> Bool {
            var current = left.load(ordering: .relaxed)
            while current > 0 {
                let (exchanged, original) = left.compareExchange(expected: current, desired: current - 1, ordering: .relaxed)
                if exchanged { return true }
                current = original
            }
            return false
        }
    }

    /// The raw SWAPI list pages, read once from the package's resources.
    private static let pages: [String: Data] = {
        var pages: [String: Data] = [:]
        for resource in ["films", "people", "planets"] {
            if let url = Bundle.module.url(forResource: resource, withExtension: "json", subdirectory: "swapi")
                ?? Bundle.module.url(forResource: "swapi/\(resource)", withExtension: "json"),
                let data = try? Data(contentsOf: url)
            {
                pages[resource] = data
            }
        }
        return pages
    }()

    /// Each record's bytes by path, e.g. `films/1/`.
    private static let records: [String: Data] = {
        var records: [String: Data] = [:]
        for (resource, page) in pages {
            guard let object = try? JSONSerialization.jsonObject(with: page) as? [String: Any],
                let results = object["results"] as? [[String: Any]]
            else { continue }
            for record in results {
                guard let url = record["url"] as? String, let id = url.split(separator: "/").last,
                    let data = try? JSONSerialization.data(withJSONObject: record)
                else { continue }
                records["\(resource)/\(id)/"] = data
            }
        }
        return records
    }()

    /// Answers a SWAPI path; unknown paths answer 404.
    public func fetch(_ path: String) async throws -> (status: Int, body: Data) {
        if latency > .zero { try await clock.sleep(for: latency) }
        if failuresLeft.take() { return (503, Data(#"{"detail":"Service unavailable"}"#.utf8)) }
        var normalized = path.hasPrefix("/") ? String(path.dropFirst()) : path
        if !normalized.hasSuffix("/") { normalized += "/" }
        if let record = Self.records[normalized] { return (200, record) }
        if let page = Self.pages[String(normalized.dropLast())] { return (200, page) }
        return (404, Data(#"{"detail":"Not found"}"#.utf8))
    }
}
