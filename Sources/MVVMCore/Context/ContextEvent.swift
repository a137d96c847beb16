/// One event of a context, as clients read it: a lifecycle event of a view model, or a
/// navigation step.
package struct ContextEvent: Sendable, Equatable, Encodable {
    /// The sequence number, from the context's counter; increasing.
    package let seq: UInt64
    /// The store key the event is about.
    package let key: String
    /// `didSetup`, `willLoad`, `didLoad`, `didUpdate`, `willUnload`, `didUnload`, or a navigation
    /// step: `didSetRoot`, `didPush`, `didPop`, `didPresent`, `didDismiss`, `didEmbed`.
    package let type: String
    /// For `didUpdate`: the output members that changed.
    package let changes: [String]?
    /// For `didEmbed`: the slot.
    package let slot: String?

    /// Makes an event.
    package init(seq: UInt64, key: String, type: String, changes: [String]? = nil, slot: String? = nil) {
        self.seq = seq
        self.key = key
        self.type = type
        self.changes = changes
        self.slot = slot
    }
}
