/// A session's navigation: the stack, root first, and the modal scene.
public struct SessionNavigation: Sendable, Equatable {
    /// How a scene is shown.
    public enum Presentation: String, Sendable, Equatable {
        /// The root of the stack.
        case root
        /// Pushed on the stack.
        case push
        /// Presented as the modal.
        case modal
        /// Embedded in a slot of its container.
        case embedded
    }

    /// One scene shown.
    public struct Entry: Sendable, Equatable {
        /// The scene's name.
        public var scene: String
        /// Its store key.
        public var key: String
        /// The path of its state document.
        public var path: String
        /// How it is shown.
        public var presentation: Presentation
        /// The scenes embedded in its slots, by slot name.
        public var slots: [String: Entry]
    }

    /// The version: it grows with every change.
    public var version: UInt64
    /// The stack, root first.
    public var stack: [Entry]
    /// The modal scene, if one is presented.
    public var modal: Entry?

    /// The scene on top: the modal, else the top of the stack.
    public var top: Entry? {
        modal ?? stack.last
    }

    init(_ navigation: Components.Schemas.Navigation) {
        version = UInt64(clamping: navigation.version)
        stack = navigation.stack.map(Entry.init)
        modal = navigation.modal.map { modal in
            Entry(
                scene: modal.scene, key: modal.key, path: modal.path, presentation: Presentation(modal.presentation),
                slots: modal.slots.additionalProperties.mapValues(Entry.init))
        }
    }
}

extension SessionNavigation.Entry {
    init(_ entry: Components.Schemas.NavigationEntry) {
        self.init(
            scene: entry.scene, key: entry.key, path: entry.path, presentation: SessionNavigation.Presentation(entry.presentation),
            slots: entry.slots.additionalProperties.mapValues(Self.init))
    }
}

extension SessionNavigation.Presentation {
    init(_ presentation: Components.Schemas.Presentation) {
        switch presentation {
        case .root: self = .root
        case .push: self = .push
        case .modal: self = .modal
        case .embedded: self = .embedded
        }
    }
}
