import MVVMClient

/// Where a step expects the session to be shown after it: the keys of the stack, root first,
/// of the modal scene, and of the scenes embedded in slots.
public struct ExpectedNavigation: Sendable, Equatable, CustomStringConvertible {
    /// The store keys of the stack, root first.
    public var stack: [String]
    /// The store key of the modal scene, if one is presented.
    public var modal: String?
    /// The store keys of the scenes embedded in the slots of the scenes shown, by slot name (a
    /// slot of an embedded scene as `outer.inner`); `nil` leaves slots unchecked.
    public var slots: [String: String]?

    /// A navigation to expect: `slots` states the embedded scenes by slot name
    /// (`["step": "profile"]`), or leaves them unchecked when `nil`.
    public init(stack: [String], modal: String? = nil, slots: [String: String]? = nil) {
        self.stack = stack
        self.modal = modal
        self.slots = slots
    }

    /// The events of navigation steps.
    static let eventTypes: Set<String> = ["didSetRoot", "didPush", "didPop", "didPresent", "didDismiss", "didEmbed"]

    init(_ navigation: SessionNavigation) {
        stack = navigation.stack.map(\.key)
        modal = navigation.modal?.key
        var slots: [String: String] = [:]
        for entry in navigation.stack + (navigation.modal.map { [$0] } ?? []) {
            Self.collectSlots(of: entry, under: "", into: &slots)
        }
        self.slots = slots
    }

    private static func collectSlots(of entry: SessionNavigation.Entry, under prefix: String, into slots: inout [String: String]) {
        for (name, child) in entry.slots {
            slots[prefix + name] = child.key
            collectSlots(of: child, under: prefix + name + ".", into: &slots)
        }
    }

    /// Whether `reached` is where this expects the session: the same stack and modal, and the
    /// same slots when these state them.
    func isMet(by reached: ExpectedNavigation) -> Bool {
        stack == reached.stack && modal == reached.modal && (slots == nil || slots == reached.slots)
    }

    /// What of `reached` differs from this, one part a line (`slot step: account, not profile`).
    func differences(from reached: ExpectedNavigation) -> [String] {
        var found: [String] = []
        if stack != reached.stack { found.append("stack \(reached.stack), not \(stack)") }
        if modal != reached.modal { found.append("modal \(reached.modal ?? "none"), not \(modal ?? "none")") }
        if let slots {
            let reachedSlots = reached.slots ?? [:]
            for name in Set(slots.keys).union(reachedSlots.keys).sorted() where slots[name] != reachedSlots[name] {
                found.append("slot \(name): \(reachedSlots[name] ?? "empty"), not \(slots[name] ?? "empty")")
            }
        }
        return found
    }

    /// The stack's keys, the modal's and the slots' (when there are any).
    public var description: String {
        "stack \(stack)" + (modal.map { ", modal \($0)" } ?? ", no modal")
            + (slots.flatMap { slots in slots.isEmpty ? nil : ", slots " + slots.keys.sorted().map { "\($0): \(slots[$0]!)" }.joined(separator: ", ")
            } ?? "")
    }
}
