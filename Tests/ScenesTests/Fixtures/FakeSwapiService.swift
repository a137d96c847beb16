import TestSupport

@testable import Scenes

/// A ``SwapiService`` over ``SwapiSamples`` that the test steers: each kind of call can be
/// told to fail with an error, or to wait at a ``Gate`` until the test opens it. It reports
/// every call it received, in order.
///
/// A call first records itself, then waits at its gate (when one is set), then fails (when
/// told to), so a test can suspend a call and decide while it waits whether it will fail.
actor FakeSwapiService: SwapiService {
    /// The kinds of call.
    enum Call: String, Sendable, CaseIterable {
        case films, film, people, person, planets, planet
    }

    private var failures: [Call: any Error] = [:]
    private var gates: [Call: Gate] = [:]
    /// Every call received, e.g. `films`, `film 4`, oldest first.
    private(set) var calls: [String] = []

    /// A service that answers everything at once.
    init() {}

    /// Makes the given calls throw `error` until ``recover()``.
    func fail(_ kinds: Call..., with error: any Error = ApiError.status(503)) {
        for kind in kinds.isEmpty ? Call.allCases : kinds { failures[kind] = error }
    }

    /// Lets every call succeed again.
    func recover() {
        failures.removeAll()
    }

    /// Makes every later call of this kind wait at a new gate, which is returned.
    func suspend(_ kind: Call) -> Gate {
        let gate = Gate()
        gates[kind] = gate
        return gate
    }

    /// How many calls of this kind were received.
    func count(_ kind: Call) -> Int {
        calls.filter { $0 == kind.rawValue || $0.hasPrefix(kind.rawValue + " ") }.count
    }

    func films() async throws -> [Film] {
        try await answer(.films) { SwapiSamples.films }
    }

    func film(id: Int) async throws -> Film {
        try await answer(.film, id) { try Self.find(SwapiSamples.films, id, \.id) }
    }

    func people() async throws -> [Person] {
        try await answer(.people) { SwapiSamples.people }
    }

    func person(id: Int) async throws -> Person {
        try await answer(.person, id) { try Self.find(SwapiSamples.people, id, \.id) }
    }

    func planets() async throws -> [Planet] {
        try await answer(.planets) { SwapiSamples.planets }
    }

    func planet(id: Int) async throws -> Planet {
        try await answer(.planet, id) { try Self.find(SwapiSamples.planets, id, \.id) }
    }

    private func answer<Value: Sendable>(_ kind: Call, _ id: Int? = nil, _ value: () throws -> Value) async throws -> Value {
        calls.append(id.map { "\(kind.rawValue) \($0)" } ?? kind.rawValue)
        if let gate = gates[kind] { try await gate.pass() }
        if let failure = failures[kind] { throw failure }
        return try value()
    }

    private static func find<Record>(_ records: [Record], _ id: Int, _ recordID: (Record) -> Int) throws -> Record {
        guard let record = records.first(where: { recordID($0) == id }) else { throw ApiError.status(404) }
        return record
    }
}
