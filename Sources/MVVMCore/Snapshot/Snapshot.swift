import Foundation
import MVVMJSON

/// A diffable list: sections of items, each item with a stable identifier, the kind of cell
/// that shows it and the cell's own output (MVVMKit's diffable snapshot, served as JSON).
///
/// Identifiers are unique across the whole snapshot; a snapshot with a duplicate identifier
/// cannot be made.
public struct Snapshot: Sendable, Equatable {
    /// One section and its items.
    public struct Section: Sendable, Equatable {
        /// The section's stable identifier.
        public let id: String
        /// The items, in display order.
        public let items: [Item]

        /// Makes a section.
        public init(id: String, items: [Item]) {
            self.id = id
            self.items = items
        }

        /// The section as a JSON value: `{"id", "items"}`.
        package var jsonValue: JSONValue {
            .object(["id": .string(id), "items": .array(items.map(\.jsonValue))])
        }
    }

    /// One cell: its identifier, its kind and its content.
    public struct Item: Sendable, Equatable {
        /// The stable identifier.
        public let id: String
        /// The kind of cell that shows it (MVVMKit's reusable view identifier).
        public let cell: String
        /// The cell view model's output; its members are written beside `id` and `cell`.
        package let content: [String: JSONValue]

        /// Makes an item whose content is the encoded members of a cell's output.
        public init(id: String, cell: String, content: some Encodable) throws {
            self.id = id
            self.cell = cell
            let value = try JSONValue(encoding: content)
            self.content = value.objectValue ?? ["value": value]
        }

        /// Makes an item whose content is given as JSON members (no encoding round trip).
        public init(id: String, cell: String, fields: [String: JSONValue]) {
            self.id = id
            self.cell = cell
            content = fields
        }

        /// The item as a JSON value: `id`, `cell` and the content's members in one object.
        package var jsonValue: JSONValue {
            var members = content
            members["id"] = .string(id)
            members["cell"] = .string(cell)
            return .object(members)
        }
    }

    /// The sections, in display order.
    public let sections: [Section]

    /// An empty snapshot.
    public init() {
        sections = []
    }

    /// Makes a snapshot.
    /// - Throws: an error naming the identifier when a section or item identifier appears twice.
    public init(sections: [Section]) throws {
        var sectionIDs = SeenIdentifiers(capacity: sections.count)
        var itemIDs = SeenIdentifiers(capacity: sections.reduce(0) { $0 + $1.items.count })
        for section in sections {
            guard sectionIDs.insert(section.id) else { throw SnapshotError.duplicateSection(section.id) }
            for item in section.items {
                guard itemIDs.insert(item.id) else { throw SnapshotError.duplicateItem(item.id) }
            }
        }
        self.sections = sections
    }

    /// The item at a section and item index, or `nil` when either is out of range.
    package func item(section: Int, item: Int) -> Item? {
        guard sections.indices.contains(section), sections[section].items.indices.contains(item) else { return nil }
        return sections[section].items[item]
    }

    /// The item with an identifier.
    package func item(id: String) -> Item? {
        for section in sections {
            if let item = section.items.first(where: { $0.id == id }) { return item }
        }
        return nil
    }

    /// The item a cell interaction addresses.
    public func item(at reference: ItemReference) -> Item? {
        switch reference {
        case .id(let id): item(id: id)
        case .position(let section, let item): self.item(section: section, item: item)
        }
    }
}

/// The identifiers a snapshot has seen while checking that none appears twice: a list compared
/// one by one for the few of most snapshots (cheaper than hashing each, and one allocation),
/// a set sized once for more.
private struct SeenIdentifiers {
    private static let listLimit = 16
    private var list: [String] = []
    private var set: Set<String> = []
    private let usesList: Bool

    init(capacity: Int) {
        usesList = capacity <= Self.listLimit
        if usesList {
            list.reserveCapacity(capacity)
        } else {
            set = Set(minimumCapacity: capacity)
        }
    }

    /// Adds an identifier; `false` when it was seen already.
    mutating func insert(_ id: String) -> Bool {
        guard usesList else { return set.insert(id).inserted }
        if list.contains(id) { return false }
        list.append(id)
        return true
    }
}

/// Why a snapshot could not be made.
package enum SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two sections share an identifier.
    case duplicateSection(String)
    /// Two items share an identifier.
    case duplicateItem(String)

    /// A sentence for the client.
    package var description: String {
        switch self {
        case .duplicateSection(let id): "the section identifier '\(id)' appears twice"
        case .duplicateItem(let id): "the item identifier '\(id)' appears twice"
        }
    }
}

/// A view model that publishes a diffable snapshot beside its output.
public protocol SnapshotProviding: ViewModel {
    /// The current snapshot; read after every call, like the output.
    var snapshot: Snapshot { get }
    /// The kinds of cell its items have, each with the type of its content, for the app's
    /// contract: its snapshot's items are then typed by their `cell`. Empty by default (the
    /// items are described as any object with an `id` and a `cell`).
    static var cells: [SnapshotCell] { get }
}

extension SnapshotProviding {
    /// No kind of cell declared.
    public static var cells: [SnapshotCell] { [] }
}

extension JSONBytesWriter {
    /// Writes a section as its ``Snapshot/Section/jsonValue`` serializes, without building it.
    mutating func write(_ section: Snapshot.Section) {
        append(#"{"id":"#)
        writeString(section.id)
        append(#","items":["#)
        let items = section.items
        writeSeparated(count: items.count) { $0.write(items[$1]) }
        append("]}")
    }

    /// Writes an item as its ``Snapshot/Item/jsonValue`` serializes: the content's members,
    /// `cell` and `id`, in key order.
    mutating func write(_ item: Snapshot.Item) {
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(item.content.count + 2)
        for member in item.content where member.key != "id" && member.key != "cell" {
            members.append(member)
        }
        members.append(("cell", .string(item.cell)))
        members.append(("id", .string(item.id)))
        members.sort { $0.key < $1.key }
        append("{")
        writeSeparated(count: members.count) { writer, index in
            let member = members[index]
            writer.writeString(member.key)
            writer.append(":")
            writer.write(member.value)
        }
        append("}")
    }
}
