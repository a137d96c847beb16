import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport

/// The JSON documents the framework publishes, decoded as a client reads them, so that tests
/// assert on what leaves the server rather than on the view models' internals.

/// A scene's state document: `{"error", "input", "key", "lifecycle", "output", "scene", "version"}`,
/// plus `navigation` in the answer to an action that navigated.
struct SceneDocument<Output: Decodable & Sendable>: Decodable, Sendable {
    let key: String
    let scene: String
    let lifecycle: String
    let error: String?
    let version: UInt64
    let output: Output
    /// Present in the answer to an action that changed the navigation.
    let navigation: NavigationDocument?

    /// Decodes a document's bytes.
    init(_ body: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: body)
    }

    var isLoaded: Bool {
        lifecycle == "loaded"
    }
}

/// A whole snapshot (`kind` `snapshot`) or the changes since a version (`kind` `changes`).
struct SnapshotJSON: Decodable, Sendable {
    struct Section: Decodable, Sendable {
        let id: String
        /// Each item's members: `id`, `cell` and the cell's content.
        let items: [[String: JSONValue]]

        var itemIDs: [String] {
            items.compactMap { $0["id"]?.text }
        }
    }

    /// A position in a `changes` document.
    struct ItemPosition: Decodable, Sendable, Equatable {
        let id: String
        let section: String
        let index: Int
    }

    struct ItemMove: Decodable, Sendable, Equatable {
        let id: String
        let from: ItemPosition
        let to: ItemPosition
    }

    struct SectionPosition: Decodable, Sendable, Equatable {
        let id: String
        let index: Int
    }

    struct Changes: Decodable, Sendable {
        struct Sections: Decodable, Sendable {
            let inserted: [SectionPosition]
            let deleted: [SectionPosition]
        }

        struct Items: Decodable, Sendable {
            let inserted: [ItemPosition]
            let deleted: [ItemPosition]
            let moved: [ItemMove]
            let changed: [ItemPosition]
        }

        let sections: Sections
        let items: Items
    }

    let kind: String
    let version: UInt64
    let since: UInt64?
    let sections: [Section]?
    let changes: Changes?

    init(_ body: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: body)
    }

    /// The section identifiers, in order (empty for a `changes` document).
    var sectionIDs: [String] {
        sections?.map(\.id) ?? []
    }

    /// The item identifiers of each section, in order.
    var itemIDs: [[String]] {
        sections?.map(\.itemIDs) ?? []
    }
}

/// The navigation document: the stack, the modal and the version.
struct NavigationDocument: Decodable, Sendable {
    struct Entry: Decodable, Sendable {
        let scene: String
        let key: String
        /// The state document's URL; served over HTTP only (the in-process harness has none).
        let path: String?
        let presentation: String
        let slots: [String: Entry]
    }

    let stack: [Entry]
    let modal: Entry?
    let version: UInt64

    init(_ body: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: body)
    }

    /// The keys of the stack, root first.
    var stackKeys: [String] {
        stack.map(\.key)
    }
}

extension JSONValue {
    /// The string, when this is one.
    var text: String? {
        if case .string(let value) = self { value } else { nil }
    }
}
