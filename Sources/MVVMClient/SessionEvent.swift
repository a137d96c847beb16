/// One event of a session: a lifecycle event of a view model, or a navigation step.
public struct SessionEvent: Sendable, Equatable {
    /// The sequence number; it grows with every event of the session.
    public var sequence: UInt64
    /// The store key the event is about.
    public var key: String
    /// `didSetup`, `willLoad`, `didLoad`, `didUpdate`, `willUnload`, `didUnload`, or a navigation
    /// step: `didSetRoot`, `didPush`, `didPop`, `didPresent`, `didDismiss`, `didEmbed`.
    public var type: String
    /// For `didUpdate`, the output members that changed.
    public var changes: [String]?
    /// For `didEmbed`, the slot.
    public var slot: String?

    /// Makes an event.
    public init(sequence: UInt64, key: String, type: String, changes: [String]? = nil, slot: String? = nil) {
        self.sequence = sequence
        self.key = key
        self.type = type
        self.changes = changes
        self.slot = slot
    }

    init(_ event: Components.Schemas.Event) {
        self.init(sequence: UInt64(clamping: event.seq), key: event.key, type: event._type, changes: event.changes, slot: event.slot)
    }
}

/// The events a read of a session's feed answered.
public struct EventBatch: Sendable, Equatable {
    /// The events, oldest first.
    public var events: [SessionEvent]
    /// The sequence number of the session's last event: the `after` of the next read.
    public var version: UInt64
    /// Whether some events after the one asked for were no longer kept, so that ``events``
    /// starts later than asked (the server answered `events-expired` and the client read what
    /// it keeps).
    public var missedEvents: Bool

    init(_ events: Components.Schemas.Events, missedEvents: Bool) {
        self.events = events.events.map(SessionEvent.init)
        version = UInt64(clamping: events.version)
        self.missedEvents = missedEvents
    }
}
