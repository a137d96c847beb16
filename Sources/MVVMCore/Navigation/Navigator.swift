/// The navigation of one context (UIKit's navigation controller, driven by coordinators).
///
/// Showing a key makes its view model through its scene's factory (or finds it in the store),
/// and embeds in its slots the first children its scene names.
/// A scene that is popped or dismissed, and is shown nowhere else, unloads and leaves the
/// store. Each step gives the navigation a new version and one event.
public final class Navigator {
    /// The current navigation.
    public private(set) var state = NavigationState()
    weak var context: ViewModelContext?

    init() {}

    /// Makes the scene under `key` the only one on the stack.
    public func setRoot(_ key: String) throws {
        let entry = try makeEntry(key, .root)
        let removed = state.stack + (state.modal.map { [$0] } ?? [])
        state.stack = [entry]
        state.modal = nil
        commit("didSetRoot", key: key, removed: removed)
    }

    /// Pushes the scene under `key` on the stack.
    public func push(_ key: String) throws {
        let entry = try makeEntry(key, .push)
        state.stack.append(entry)
        commit("didPush", key: key)
    }

    /// Presents the scene under `key` modally, replacing any modal already shown.
    public func present(_ key: String) throws {
        let entry = try makeEntry(key, .modal)
        let removed = state.modal.map { [$0] } ?? []
        state.modal = entry
        commit("didPresent", key: key, removed: removed)
    }

    /// Dismisses the modal scene.
    public func dismiss() throws {
        guard let modal = state.modal else { throw NavigationError.atRoot }
        state.modal = nil
        commit("didDismiss", key: modal.key, removed: [modal])
    }

    /// Pops the top scene of the stack.
    public func pop() throws {
        guard state.stack.count > 1, let top = state.stack.popLast() else { throw NavigationError.atRoot }
        commit("didPop", key: top.key, removed: [top])
    }

    /// Goes back: dismisses the modal when one is shown, else pops the stack.
    public func back() throws {
        if state.modal != nil { try dismiss() } else { try pop() }
    }

    /// Makes (or finds) the view model of the scene under `key` without showing it, so that a
    /// coordinator can check a key before a step that depends on it.
    /// - Throws: ``ViewModelStoreError`` when no scene has the key or its factory refuses it;
    ///   nothing changes then.
    public func prepare(_ key: String) throws {
        guard let context else { throw ViewModelStoreError.unknownKey(key) }
        try context.entry(forKey: key)
    }

    /// Embeds the scene under `key` in a slot of the container scene under `containerKey`,
    /// replacing the child that was there. When the step fails, nothing changes: the child is
    /// made only once the container is known to be shown and to have the slot.
    public func embed(_ key: String, in slot: String, of containerKey: String) throws {
        guard let context, let container = context.catalogue.scene(forKey: containerKey)?.scene else {
            throw NavigationError.containerNotShown(containerKey)
        }
        guard container.slots.contains(slot) else { throw NavigationError.unknownSlot(container: container.name, slot: slot) }
        guard state.shownKeys.contains(containerKey) else { throw NavigationError.containerNotShown(containerKey) }
        let child = try makeEntry(key, .embedded)
        var removed: [NavigationEntry] = []
        var found = false
        func replace(in entry: inout NavigationEntry) {
            if entry.key == containerKey {
                found = true
                if let old = entry.slots[slot] { removed.append(old) }
                entry.slots[slot] = child
            }
            for name in entry.slots.keys { replace(in: &entry.slots[name]!) }
        }
        for index in state.stack.indices { replace(in: &state.stack[index]) }
        if state.modal != nil { replace(in: &state.modal!) }
        guard found else { throw NavigationError.containerNotShown(containerKey) }
        commit("didEmbed", key: key, slot: slot, removed: removed)
    }

    /// Shows `state` again (a navigation that was saved), under a new version, without
    /// making the view models it shows nor publishing it: for undoing a change that could not
    /// be saved, whose navigation was never published.
    func revert(to state: NavigationState) {
        var reverted = state
        reverted.version = context?.counter.next() ?? self.state.version
        self.state = reverted
    }

    /// The entry that shows `key`, with its slots' first children embedded (theirs too); the
    /// keys of the containers being made are in `making`, so that a cycle stops.
    private func makeEntry(_ key: String, _ presentation: Presentation, making: Set<String> = []) throws -> NavigationEntry {
        guard let context else { throw ViewModelStoreError.unknownKey(key) }
        let found = context.catalogue.scene(forKey: key)
        if let found, !found.scene.isAddressable { throw NavigationError.notShowable(key) }
        let storeEntry = try context.entry(forKey: key)
        var entry = NavigationEntry(scene: storeEntry.scene, key: key, presentation: presentation)
        guard let (scene, parameters) = found, !scene.firstChildren.isEmpty else { return entry }
        for (slot, template) in scene.firstChildren.sorted(by: { $0.key < $1.key }) {
            let childKey = Self.filling(template, with: parameters)
            guard childKey != key, !making.contains(childKey) else { continue }
            entry.slots[slot] = try makeEntry(childKey, .embedded, making: making.union([key]))
        }
        return entry
    }

    /// `template` with each `{name}` replaced by the parameter of that name.
    private static func filling(_ template: String, with parameters: [String: String]) -> String {
        parameters.reduce(template) { key, parameter in key.replacingOccurrences(of: "{\(parameter.key)}", with: parameter.value) }
    }

    private func commit(_ type: String, key: String, slot: String? = nil, removed: [NavigationEntry] = []) {
        guard let context else { return }
        state.version = context.counter.next()
        context.didNavigate(ContextEvent(seq: state.version, key: key, type: type, slot: slot))
        let shown = state.shownKeys
        for key in removed.flatMap(\.allKeys) where !shown.contains(key) {
            context.store.remove(key)
        }
    }
}
