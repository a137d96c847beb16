import Logging
import MVVMCore
import MVVMHTTP
import MVVMSupport
import Synchronization

/// The live sessions of an application: the table that finds them by id, how a session is made,
/// the places its requests may take while parked, and how it ends.
///
/// It knows nothing of saved state: ``SavedStateCoordinator`` saves, restores and forgets
/// sessions through it.
final class Sessions: Sendable {
    /// The sessions by id, with the tombstones of those gone.
    let table = SessionTable()
    /// Requests parked and streams open on all sessions.
    private let parkedTotal = Atomic<Int>(0)
    /// The scenes of the app.
    let catalogue: SceneCatalogue
    private let dependencies: DependencyValues
    private let configuration: ApplicationConfiguration
    private let metrics: Metrics
    private let work: BackgroundWork
    private let logger: Logger
    /// The clocks and meters of testing mode; `nil` otherwise.
    private let testing: TestingMode?
    /// Warns of saved state written while no store saves it.
    let unsavedStateWarning: UnsavedStateWarning

    /// The sessions of `catalogue`'s scenes, whose factories get `dependencies`; their ends run
    /// as pieces of `work`; in `testing` mode, each has a clock and a meter of its own.
    init(
        catalogue: SceneCatalogue, dependencies: DependencyValues, configuration: ApplicationConfiguration, metrics: Metrics, work: BackgroundWork,
        logger: Logger, testing: TestingMode? = nil
    ) {
        self.testing = testing
        self.catalogue = catalogue
        self.dependencies = dependencies
        self.configuration = configuration
        self.metrics = metrics
        self.work = work
        self.logger = logger
        unsavedStateWarning = UnsavedStateWarning(logger: logger)
    }

    /// Milliseconds on the monotonic clock, the clock of sessions' uses.
    var now: UInt64 {
        MonotonicClock.milliseconds
    }

    /// How many sessions are live.
    var count: Int {
        table.count
    }

    /// How many requests are parked, and streams open, on all sessions.
    var parkedCount: Int {
        parkedTotal.load(ordering: .relaxed)
    }

    /// The session `id` names now; when it is live and `isUse`, the look-up counts as a use.
    func lookup(_ id: String, isUse: Bool = true) -> SessionTable.Lookup {
        table.lookup(id, now: now, isUse: isUse)
    }

    /// A session's context and bookkeeping, not yet in the table. Versions start after
    /// `firstVersion` (a restored session's). In testing mode it records its changes in
    /// `journal` and waits on `clock` (a recreated session's), else in a new journal and on a
    /// new clock.
    func make(
        id: String, createdAt: Int64 = WallClock.milliseconds, firstVersion: UInt64 = 0, journal: SessionJournal? = nil, clock: ManualClock? = nil
    ) -> Session {
        // Made the first time a view model of the session logs, not with every session.
        let logger = logger
        let time = testing.map { testing in
            let made = testing.makeSessionTime()
            return (clock: clock ?? made.clock, meter: made.meter)
        }
        let context = ContextActor(
            id: id, catalogue: catalogue, dependencies: dependencies, logger: Self.logger(logger, session: id),
            eventCapacity: configuration.eventHistory,
            navigationDocument: NavigationDocument.writer(sessionID: id), firstVersion: firstVersion,
            unsavedStateWarning: unsavedStateWarning, meter: time?.meter, clock: time?.clock)
        return Session(
            id: id, context: context, now: now, createdAt: createdAt,
            testing: time.map { Session.Testing(journal: journal ?? SessionJournal(), clock: $0.clock, meter: $0.meter) })
    }

    /// The logger of a session's view models: `logger`, naming the session (redacted).
    private static func logger(_ logger: Logger, session id: String) -> Logger {
        var sessionLogger = logger
        sessionLogger[metadataKey: "session"] = .string(SessionID.redacted(id))
        return sessionLogger
    }

    /// Adds a new session; at the cap, the least recently used idle one is evicted to make room
    /// and returned (the caller ends it, see ``SavedStateCoordinator/evicted(_:)``).
    /// - Throws: the capacity problem when every session has a parked request.
    func insert(_ session: Session) throws(HTTPError) -> Session? {
        let evicted = try table.insert(session, capacity: configuration.maxSessions, now: now).get()
        metrics.createdSessions.increment()
        return evicted
    }

    /// Adds a restored session unless one with its id is live already: returns the one in the
    /// table, and the one evicted to make room. The session made but not used is ended.
    func insertRestored(_ session: Session) -> (session: Session, evicted: Session?)? {
        guard case .success(let outcome) = table.insertIfAbsent(session, capacity: configuration.maxSessions, now: now) else { return nil }
        if outcome.session !== session { end(session) }
        return outcome
    }

    /// Removes a session from the table, leaving a tombstone; `nil` when it was not there.
    func remove(_ id: String) -> Session? {
        table.remove(id, now: now)
    }

    /// Takes a parked request's place on the session and in all; returns the place (to give
    /// back once), or `nil`, taking none, beyond either cap.
    func reserveParking(for session: Session) -> ParkingPlace? {
        let perSession = session.parkedRequests.add(1, ordering: .relaxed).newValue
        let total = parkedTotal.add(1, ordering: .relaxed).newValue
        let place = ParkingPlace(session: session, sessions: self)
        guard perSession <= configuration.maxParkedPerSession, total <= configuration.maxParkedTotal else {
            place.release()
            return nil
        }
        return place
    }

    /// A place taken among the parked requests by ``reserveParking(for:)``: a value, so that
    /// keeping it costs a parked request no allocation.
    struct ParkingPlace: Sendable {
        let session: Session
        weak var sessions: Sessions?

        /// Gives the place back; call it once.
        func release() {
            session.parkedRequests.subtract(1, ordering: .relaxed)
            sessions?.parkedTotal.subtract(1, ordering: .relaxed)
        }
    }

    /// Ends a session that has left the table, as a piece of the application's work (see
    /// ``Session/end(handedOver:)``).
    func end(_ session: Session, handedOver: Bool = false) {
        work.start { await session.end(handedOver: handedOver) }
    }

    /// Removes the sessions idle for longer than the configuration allows; the caller forgets
    /// and ends them.
    func removeExpired() -> [Session] {
        let expired = table.removeExpired(idleMilliseconds: UInt64(configuration.sessionIdleSeconds * 1000), now: now)
        metrics.expiredSessions.increment(by: expired.count)
        return expired
    }

    /// Ends every session (each view model is cleared), as a shutdown does.
    func endAll() async {
        for session in table.removeAll() {
            await session.end()
        }
    }
}
