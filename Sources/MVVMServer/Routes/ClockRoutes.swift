import MVVMCore
import MVVMHTTP
import MVVMJSON

/// `GET /testing/clock` and `POST /testing/clock/advance`: the test clock of testing mode.
extension API {
    func addClockRoutes(to router: inout Router, testing: TestingMode) {
        router.add("GET", "/testing/clock") { _ in
            .response(.json(encoding: ClockDocument(testing.clock), headers: [("Cache-Control", "no-store")]))
        }
        router.add("POST", "/testing/clock/advance") { [self] routed in try advanceClock(routed, testing: testing) }
    }

    /// `POST /testing/clock/advance` with `{"seconds": N}`: moves the clock N seconds, waking
    /// each wait that comes due in order, and answers the clock once the work it resumed is
    /// quiet (`"settled": true`), or when `wait` seconds (the maximum wait when absent) pass
    /// first (`"settled": false`, the clock moved all the way all the same).
    func advanceClock(_ routed: RoutedRequest, testing: TestingMode) throws -> Reply {
        let body = try jsonObject(routed.request, allowEmpty: false)
        let duration = try Self.advanceDuration(body)
        let wait = try waitParameter(routed, absent: longestWait)
        return .task {
            let settled = await testing.advance(by: duration, before: .now + wait)
            return .response(.json(encoding: ClockDocument(testing.clock, settled: settled), headers: [("Cache-Control", "no-store")]))
        }
    }

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
        let number: Double? = switch value {
        case .number(let number): number
        case .integer(let integer): Double(integer)
        default: nil
        }
        guard let seconds = number, seconds.isFinite else {
            throw HTTPError(.invalidArguments, detail: "The member seconds must be a number, not \(value.typeName == "array" || value.typeName == "object" ? "an" : "a") \(value.typeName).", member: "seconds")
        }
        guard seconds >= 0, seconds <= maxAdvanceSeconds else {
            throw HTTPError(.invalidArguments, detail: "The member seconds must be from 0 to \(Int(maxAdvanceSeconds)); the clock does not move back.", member: "seconds")
        }
        return .seconds(seconds)
    }

    /// The furthest one advance moves the clock: a thousand years.
    static let maxAdvanceSeconds = 1000.0 * 365 * 24 * 3600
}

/// The test clock as `/testing/clock` answers it.
struct ClockDocument: Encodable {
    /// Seconds the clock has moved since the server started.
    let now: Double
    /// How many waits wait for the clock.
    let waiting: Int
    /// When the earliest of them comes due, in the clock's seconds; `nil` when none waits.
    let nextDeadline: Double?
    /// Whether the work the advance resumed was quiet when it answered (advances only).
    let settled: Bool?

    init(_ clock: ManualClock, settled: Bool? = nil) {
        now = Self.seconds(clock.now.offset)
        waiting = clock.sleeperCount
        nextDeadline = clock.nextDeadline.map { Self.seconds($0.offset) }
        self.settled = settled
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
