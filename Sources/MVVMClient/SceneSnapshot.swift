import Foundation
import OpenAPIRuntime

/// A list scene's diffable snapshot as the client holds it: sections of items, in display
/// order, each item with its identifier, its kind of cell and the cell's fields.
public struct SceneSnapshot: Sendable, Equatable {
    /// One item (a cell).
    public struct Item: Sendable, Equatable {
        /// The identifier, unique across the snapshot.
        public var id: String
        /// The kind of cell that shows it.
        public var cell: String
        /// The cell's fields (its view model's output), as JSON.
        public var fields: OpenAPIObjectContainer

        /// The item decoded as one JSON object (`id`, `cell` and the fields) into an app type.
        public func decode<Value: Decodable>(as type: Value.Type) throws -> Value {
            var object = fields.value
            object["id"] = id
            object["cell"] = cell
            return try ContainerDecoding.decode(Value.self, from: try OpenAPIObjectContainer(unvalidatedValue: object))
        }
    }

    /// One section.
    public struct Section: Sendable, Equatable {
        /// The identifier.
        public var id: String
        /// The items, in display order.
        public var items: [Item]
    }

    /// The version at which the server published it.
    public var version: UInt64
    /// The sections, in display order.
    public var sections: [Section]

    /// The item identifiers, section by section.
    public var itemIDs: [[String]] {
        sections.map { $0.items.map(\.id) }
    }

    init(_ snapshot: Components.Schemas.Snapshot) throws {
        version = UInt64(clamping: snapshot.version)
        sections = snapshot.sections.map { section in
            Section(id: section.id, items: section.items.map(Item.init))
        }
    }
}

extension SceneSnapshot.Item {
    init(_ item: Components.Schemas.SnapshotItem) {
        self.init(id: item.id, cell: item.cell, fields: item.additionalProperties)
    }
}
