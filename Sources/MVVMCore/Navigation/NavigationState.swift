import Foundation
import MVVMJSON

/// Where a scene is shown.
public enum Presentation: String, Sendable, Codable, Equatable {
    /// The first scene of the stack.
    case root
    /// Pushed on the stack.
    case push
    /// Presented modally above the stack.
    case modal
    /// Embedded in a slot of a container scene.
    case embedded
}

/// One scene on screen: its scene name and key, how it is shown, and the children embedded
/// in its slots (MVVMKit's embedding).
public struct NavigationEntry: Sendable, Equatable, Encodable {
    /// The scene's name.
    public let scene: String
    /// The store key of its view model.
    public let key: String
    /// How it is shown.
    public let presentation: Presentation
    /// Children embedded in named slots.
    public package(set) var slots: [String: NavigationEntry] = [:]

    /// Makes an entry.
    package init(scene: String, key: String, presentation: Presentation, slots: [String: NavigationEntry] = [:]) {
        self.scene = scene
        self.key = key
        self.presentation = presentation
        self.slots = slots
    }

    /// Every key this entry and its children show.
    package var allKeys: [String] {
        [key] + slots.values.flatMap(\.allKeys)
    }
}

/// The navigation of one context: a stack with a root, and at most one modal above it.
public struct NavigationState: Sendable, Equatable, Encodable {
    /// The stack, root first.
    public package(set) var stack: [NavigationEntry] = []
    /// The modal scene, when one is presented.
    public package(set) var modal: NavigationEntry?
    /// The version of this state, from the context's counter.
    public package(set) var version: UInt64 = 0

    /// An empty navigation.
    package init() {}

    /// The scene on top: the modal, else the last of the stack.
    package var top: NavigationEntry? {
        modal ?? stack.last
    }

    /// Every key shown anywhere (stack, modal, slots).
    public var shownKeys: Set<String> {
        Set(stack.flatMap(\.allKeys) + (modal?.allKeys ?? []))
    }

    /// The state as JSON through its `Encodable` form (no modal member when none is shown):
    /// what a context publishes unless it is given another writer.
    @Sendable
    package static func encodedDocument(_ state: NavigationState) -> Data {
        (try? JSONCoding.encode(state)) ?? Data()
    }
}
