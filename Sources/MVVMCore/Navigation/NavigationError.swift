/// Why a navigation step could not be taken.
package enum NavigationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is nothing to go back from: only the root is shown.
    case atRoot
    /// The container is not shown, so nothing can be embedded in it.
    case containerNotShown(String)
    /// The scene does not have this slot.
    case unknownSlot(container: String, slot: String)
    /// The scene is the app's own (not addressable), so it is never shown.
    case notShowable(String)

    /// A sentence for the client.
    package var description: String {
        switch self {
        case .atRoot: "only the root scene is shown; there is nothing to go back from"
        case .containerNotShown(let key): "the container '\(key)' is not shown"
        case .unknownSlot(let container, let slot): "the scene '\(container)' has no slot '\(slot)'"
        case .notShowable(let key): "the scene of '\(key)' is the app's own and is never shown"
        }
    }
}
