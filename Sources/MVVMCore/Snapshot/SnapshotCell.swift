import MVVMJSON

/// A kind of cell of a snapshot (``Snapshot/Item/cell``) and the type of its content, whose
/// members an item writes beside `id` and `cell`: how the app's contract types a scene's items.
/// ```swift
/// static let cells = [SnapshotCell("film", content: FilmCell.self)]
/// ```
/// The items' content is not checked against it when they are made (an item may be made from
/// JSON members, ``Snapshot/Item/init(id:cell:fields:)``); a test's `TestServer` checks every
/// snapshot it reads against the contract.
public struct SnapshotCell: Sendable {
    /// The cell's name, as items write it in `cell`.
    public let name: String
    /// The schema of an item of this cell: the content's members, `id` and `cell`.
    let itemSchema: @Sendable (TypeDescriber) -> JSONValue

    /// A kind of cell named `name`, whose content is a `Content` (its members are the item's,
    /// beside `id` and `cell`; content that is not an object is written under `value`).
    public init<Content: Codable & Sendable>(_ name: String, content: Content.Type) {
        self.name = name
        itemSchema = { describer in
            SnapshotCell.item(name, content: describer.resolved(describer.schema(of: Content.self)))
        }
    }

    /// An item's schema: the members of `content` (or `value`, for content that is not an
    /// object), `id` and `cell`, exactly.
    private static func item(_ name: String, content: JSONValue) -> JSONValue {
        var members: [(name: String, schema: JSONValue)]
        var required: Set<String> = ["id", "cell"]
        if let object = content.objectValue, object["type"] == .string("object"), let properties = object["properties"]?.objectValue {
            members = properties.keys.sorted().compactMap { key in properties[key].map { (key, $0) } }
            if case .array(let names)? = object["required"] { required.formUnion(names.compactMap(\.stringValue)) }
        } else {
            members = [("value", content)]
            required.insert("value")
        }
        members.removeAll { $0.name == "id" || $0.name == "cell" }
        members.append(("id", .object(["type": .string("string"), "description": .string("Unique across the whole snapshot.")])))
        members.append(("cell", .object(["type": .string("string"), "const": .string(name)])))
        return SchemaWriting.object(members, required: required)
    }
}
