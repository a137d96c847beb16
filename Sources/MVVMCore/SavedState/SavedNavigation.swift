import Foundation
import MVVMJSON

/// A navigation as it is saved: the keys of the stack, of the modal and of each slot's scene,
/// from which a restored context shows the same scenes again.
package struct SavedNavigation: Codable, Equatable, Sendable {
    /// One scene shown, and the scenes embedded in its slots.
    struct Entry: Codable, Equatable, Sendable {
        var key: String
        var slots: [String: Entry]?

        init(_ entry: NavigationEntry) {
            key = entry.key
            slots = entry.slots.isEmpty ? nil : entry.slots.mapValues(Entry.init)
        }
    }

    var stack: [Entry]
    var modal: Entry?

    /// The navigation to save.
    package init(_ state: NavigationState) {
        stack = state.stack.map(Entry.init)
        modal = state.modal.map(Entry.init)
    }

    /// A saved navigation read back; `nil` when the bytes are not one.
    package init?(bytes: [UInt8]) {
        guard let value = try? JSONDecoder().decode(SavedNavigation.self, from: Data(bytes)) else { return nil }
        self = value
    }

    /// The navigation as JSON.
    package var bytes: [UInt8] {
        (try? JSONBytesEncoder.encode(self)) ?? Array(#"{"stack":[]}"#.utf8)
    }

    /// The navigation state this shows, its scenes named from `catalogue` (version 0); `nil`
    /// when a key has no scene in it.
    func state(in catalogue: SceneCatalogue) -> NavigationState? {
        func entry(_ saved: Entry, _ presentation: Presentation) -> NavigationEntry? {
            guard let scene = catalogue.scene(forKey: saved.key)?.scene else { return nil }
            var slots: [String: NavigationEntry] = [:]
            for (slot, child) in saved.slots ?? [:] {
                guard let made = entry(child, .embedded) else { return nil }
                slots[slot] = made
            }
            return NavigationEntry(scene: scene.name, key: saved.key, presentation: presentation, slots: slots)
        }
        var state = NavigationState()
        for (index, saved) in stack.enumerated() {
            guard let made = entry(saved, index == 0 ? .root : .push) else { return nil }
            state.stack.append(made)
        }
        if let modal {
            guard let made = entry(modal, .modal) else { return nil }
            state.modal = made
        }
        return state
    }

    /// Shows the saved scenes again: the root, the pushed scenes, the modal, and what each
    /// embeds in its slots.
    func replay(on navigator: Navigator) throws {
        guard let root = stack.first else { return }
        try navigator.setRoot(root.key)
        try embedSlots(of: root, on: navigator)
        for entry in stack.dropFirst() {
            try navigator.push(entry.key)
            try embedSlots(of: entry, on: navigator)
        }
        if let modal {
            try navigator.present(modal.key)
            try embedSlots(of: modal, on: navigator)
        }
    }

    private func embedSlots(of entry: Entry, on navigator: Navigator) throws {
        for (slot, child) in (entry.slots ?? [:]).sorted(by: { $0.key < $1.key }) {
            try navigator.embed(child.key, in: slot, of: entry.key)
            try embedSlots(of: child, on: navigator)
        }
    }
}
