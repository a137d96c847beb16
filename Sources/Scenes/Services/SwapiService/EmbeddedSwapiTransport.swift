import Foundation

/// Serves the SWAPI data set shipped with the app (films, people, planets as SWAPI's own JSON),
/// answering the same paths as SWAPI: `films/`, `films/1/`, `people/`, `planets/8/`…
/// An artificial latency makes the loading state visible.
public struct EmbeddedSwapiTransport: ApiTransport {
    /// The pause before each answer.
    public let latency: Duration

    /// Makes the transport.
    public init(latency: Duration = .zero) {
        self.latency = latency
    }

    /// The raw SWAPI list pages, read once from the package's resources.
    private static let pages: [String: Data] = {
        var pages: [String: Data] = [:]
        for resource in ["films", "people", "planets"] {
            if let url = Bundle.module.url(forResource: resource, withExtension: "json", subdirectory: "swapi")
                ?? Bundle.module.url(forResource: "swapi/\(resource)", withExtension: "json"),
               let data = try? Data(contentsOf: url) {
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
                  let results = object["results"] as? [[String: Any]] else { continue }
            for record in results {
                guard let url = record["url"] as? String, let id = url.split(separator: "/").last,
                      let data = try? JSONSerialization.data(withJSONObject: record) else { continue }
                records["\(resource)/\(id)/"] = data
            }
        }
        return records
    }()

    /// Answers a SWAPI path; unknown paths answer 404.
    public func fetch(_ path: String) async throws -> (status: Int, body: Data) {
        if latency > .zero { try await Task.sleep(for: latency) }
        var normalized = path.hasPrefix("/") ? String(path.dropFirst()) : path
        if !normalized.hasSuffix("/") { normalized += "/" }
        if let record = Self.records[normalized] { return (200, record) }
        if let page = Self.pages[String(normalized.dropLast())] { return (200, page) }
        return (404, Data(#"{"detail":"Not found"}"#.utf8))
    }
}
