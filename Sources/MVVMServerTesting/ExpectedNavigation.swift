import MVVMClient

/// Where a step expects the session to be shown after it: the keys of the stack, root first,
/// and of the modal scene.
public struct ExpectedNavigation: Sendable, Equatable, CustomStringConvertible {
    /// The store keys of the stack, root first.
    public var stack: [String]
    /// The store key of the modal scene, if one is presented.
    public var modal: String?

    /// A navigation to expect.
    public init(stack: [String], modal: String? = nil) {
        self.stack = stack
        self.modal = modal
    }

    /// The events of navigation steps.
    static let eventTypes: Set<String> = ["didSetRoot", "didPush", "didPop", "didPresent", "didDismiss", "didEmbed"]

    init(_ navigation: SessionNavigation) {
        stack = navigation.stack.map(\.key)
        modal = navigation.modal?.key
    }

    /// The stack's keys and the modal's.
    public var description: String {
        "stack \(stack)" + (modal.map { ", modal \($0)" } ?? ", no modal")
    }
}
