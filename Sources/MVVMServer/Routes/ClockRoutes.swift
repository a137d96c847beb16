import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON

/// The test clocks of testing mode: `GET /testing/clock` and `POST /testing/clock/advance` read
/// and move every clock at once (the server's and every session's), `GET …/clock` and
/// `POST …/clock/advance` below a session read and move that session's alone.
extension API {
    func addClockRoutes(to router: inout Router, testing: TestingMode) {
        router.add("GET", "/testing/clock") { [self] _ in
            .response(
                .json(
                    encoding: ClockDocument(server: testing.serverClock, sessions: liveSessionsTesting().map(\.clock)),
                    headers: [("Cache-Control", "no-store")]))
        }
        router.add("POST", "/testing/clock/advance") { [self] routed in try advanceEveryClock(routed, testing: testing) }
        router.add("GET", "/sessions/{id}/clock") { [self] routed in
            .response(.json(encoding: ClockDocument(try sessionTesting(routed).clock), headers: [("Cache-Control", "no-store")]))
        }
        router.add("POST", "/sessions/{id}/clock/advance", journaled { [self] routed in try advanceSessionClock(routed, testing: testing) })
    }

    /// What testing mode keeps for each session live now.
    private func liveSessionsTesting() -> [Session.Testing] {
        sessions.table.all.compactMap(\.testing)
    }

    /// What testing mode keeps for the live session the `id` path parameter names.
    /// - Throws: as ``liveSession(_:)``.
    private func sessionTesting(_ routed: RoutedRequest) throws -> Session.Testing {
        guard let testing = try liveSession(routed).testing else { throw HTTPError(.sessionNotFound, detail: "No session has this id.") }
        return testing
    }

    /// How far a clock move asks to go (`{"seconds": N}`) and how long it may wait for the work
    /// it resumes (`wait`, the longest wait when absent).
    /// - Throws: what ``advanceDuration(_:)`` and ``waitParameter(_:absent:)`` throw, and 400
    ///   for a body that is not a JSON object.
    private func clockMove(_ routed: RoutedRequest) throws -> (duration: Duration, wait: Duration) {
        let duration = try Self.advanceDuration(try jsonObject(routed.request.body, allowEmpty: false))
        return (duration, try waitParameter(routed, absent: longestWait))
    }

    /// `POST /testing/clock/advance` with `{"seconds": N}`: moves every clock N seconds (the
    /// server's and each live session's), waking each wait that comes due in order, and
    /// answers the server's clock once the work it resumed is quiet (`"settled": true`), or
    /// when `wait` seconds (the maximum wait when absent) pass first (`"settled": false`, the
    /// clocks moved all the way all the same). Each live session's journal records the move,
    /// as a move of its own clock, with its clock as it then stands.
    func advanceEveryClock(_ routed: RoutedRequest, testing: TestingMode) throws -> Reply {
        let (duration, wait) = try clockMove(routed)
        let requestBody = routed.request.body
        let moved = liveSessionsTesting()
        return .task {
            let settled = await testing.advance([testing.serverClock] + moved.map(\.clock), by: duration, before: .now + wait)
            for session in moved {
                let answer = (try? JSONCoding.encode(ClockDocument(session.clock, settled: settled))) ?? Data()
                session.journal.record(method: "POST", path: Self.clockAdvancePath, body: requestBody, status: 200, answer: answer)
            }
            return .response(
                .json(
                    encoding: ClockDocument(server: testing.serverClock, sessions: moved.map(\.clock), settled: settled),
                    headers: [("Cache-Control", "no-store")]))
        }
    }

    /// `POST /sessions/{id}/clock/advance` with `{"seconds": N}`: moves the session's clock
    /// alone, as the server-wide advance moves every clock, and answers it once the session's
    /// work it resumed is quiet, or when `wait` passes first. Recorded in the session's journal.
    func advanceSessionClock(_ routed: RoutedRequest, testing: TestingMode) throws -> Reply {
        let sessionTesting = try sessionTesting(routed)
        let (duration, wait) = try clockMove(routed)
        return .task {
            let settled = await testing.advance([sessionTesting.clock], by: duration, quietOn: sessionTesting.meter, before: .now + wait)
            return .response(.json(encoding: ClockDocument(sessionTesting.clock, settled: settled), headers: [("Cache-Control", "no-store")]))
        }
    }

    /// Where a session's clock is moved, below the session's path: what its journal records.
    static let clockAdvancePath = "/clock/advance"

    /// The duration an advance's body asks for.
    /// - Throws: 422 `invalid-arguments` naming `seconds` when it is missing, not a number,
    ///   negative or too large; the same naming any other member.
    static func advanceDuration(_ body: [String: JSONValue]) throws(HTTPError) -> Duration {
        if let other = body.keys.sorted().first(where: { $0 != "seconds" }) {
            throw HTTPError(.invalidArguments, detail: "An advance takes one member, seconds; \(other) is not one.", member: other)
        }
        guard let value = body["seconds"] else {
            throw HTTPError(.invalidArguments, detail: "The member seconds is missing: how far to move the clock.", member: "seconds")
        }
        let number: Double? =
            switch value {
            case .number(let number): number
            case .integer(let integer): Double(integer)
            default: nil
            }
        guard let seconds = number, seconds.isFinite else {
            throw HTTPError(
                .invalidArguments,
                detail:
                    "The member seconds must be a number, not \(value.typeName == "array" || value.typeName == "object" ? "an" : "a") \(value.typeName).",
                member: "seconds")
        }
        guard seconds >= 0, seconds <= maxAdvanceSeconds else {
            throw HTTPError(
                .invalidArguments, detail: "The member seconds must be from 0 to \(Int(maxAdvanceSeconds)); the clock does not move back.",
                member: "seconds")
        }
        return .seconds(seconds)
    }

    /// The furthest one advance moves the clock: a thousand years.
    static let maxAdvanceSeconds = 1000.0 * 365 * 24 * 3600
}

/// A test clock as `/testing/clock` and `…/clock` answer it.
struct ClockDocument: Encodable {
    /// Seconds the clock has moved since it started: since the server started, or the session
    /// was made.
    let now: Double
    /// How many waits wait for the clock.
    let waiting: Int
    /// When the earliest of them comes due, in the clock's seconds; `nil` when none waits.
    let nextDeadline: Double?
    /// Whether the work the advance resumed was quiet when it answered (advances only).
    let settled: Bool?

    /// One clock: a session's.
    init(_ clock: ManualClock, settled: Bool? = nil) {
        now = Self.seconds(clock.now.offset)
        waiting = clock.sleeperCount
        nextDeadline = clock.nextDeadline.map { Self.seconds($0.offset) }
        self.settled = settled
    }

    /// Every clock as one, in the server's time: the waits of the server's clock and of every
    /// session's, the next of them counted from where its own clock stands.
    init(server: ManualClock, sessions: [ManualClock], settled: Bool? = nil) {
        let serverNow = server.now
        let clocks = [server] + sessions
        now = Self.seconds(serverNow.offset)
        waiting = clocks.reduce(0) { $0 + $1.sleeperCount }
        nextDeadline = clocks.compactMap { clock in clock.nextDeadline.map { clock.now.duration(to: $0) } }.min().map {
            Self.seconds((serverNow.offset + $0))
        }
        self.settled = settled
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
