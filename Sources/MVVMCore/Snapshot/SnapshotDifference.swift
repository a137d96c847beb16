/// What changed between two snapshots: sections and items inserted, deleted and moved (found
/// with the standard library's `CollectionDifference`, inferring moves), and items whose
/// identifier stayed but whose content changed (which an identity-only diff would miss).
public struct SnapshotDifference: Sendable, Equatable, Encodable {
    /// A section's identifier and index.
    public struct SectionPosition: Sendable, Equatable, Encodable {
        /// The section's identifier.
        public let id: String
        /// Its index (in the old snapshot for deletions, in the new one otherwise).
        public let index: Int
    }

    /// A section that moved.
    public struct SectionMove: Sendable, Equatable, Encodable {
        /// The section's identifier.
        public let id: String
        /// The index in the old snapshot.
        public let from: Int
        /// The index in the new snapshot.
        public let to: Int
    }

    /// An item's identifier and where it is.
    public struct ItemPosition: Sendable, Equatable, Encodable {
        /// The item's identifier.
        public let id: String
        /// Its section's identifier.
        public let section: String
        /// Its index within the section.
        public let index: Int
    }

    /// An item that moved, within a section or to another.
    public struct ItemMove: Sendable, Equatable, Encodable {
        /// The item's identifier.
        public let id: String
        /// Where it was.
        public let from: ItemPosition
        /// Where it is.
        public let to: ItemPosition
    }

    /// Section changes.
    public struct SectionChanges: Sendable, Equatable, Encodable {
        /// Sections that are new.
        public var inserted: [SectionPosition] = []
        /// Sections that are gone.
        public var deleted: [SectionPosition] = []
        /// Sections that moved.
        public var moved: [SectionMove] = []
    }

    /// Item changes.
    public struct ItemChanges: Sendable, Equatable, Encodable {
        /// Items that are new.
        public var inserted: [ItemPosition] = []
        /// Items that are gone.
        public var deleted: [ItemPosition] = []
        /// Items that moved.
        public var moved: [ItemMove] = []
        /// Items with the same identifier and a new content or cell kind (at their new position).
        public var changed: [ItemPosition] = []
    }

    /// Section changes.
    public var sections = SectionChanges()
    /// Item changes.
    public var items = ItemChanges()

    /// Whether nothing changed.
    public var isEmpty: Bool {
        self == SnapshotDifference()
    }

    init() {}

    /// The changes that turn `old` into `new`.
    public init(from old: Snapshot, to new: Snapshot) {
        let sectionDiff = new.sections.map(\.id).difference(from: old.sections.map(\.id)).inferringMoves()
        for change in sectionDiff {
            switch change {
            case .insert(let offset, let id, let movedFrom):
                if let movedFrom {
                    sections.moved.append(SectionMove(id: id, from: movedFrom, to: offset))
                } else {
                    sections.inserted.append(SectionPosition(id: id, index: offset))
                }
            case .remove(let offset, let id, let movedTo):
                if movedTo == nil { sections.deleted.append(SectionPosition(id: id, index: offset)) }
            }
        }

        // Items: a difference per section kept in both (so a section's move does not move its
        // items); what leaves one section and enters another is a move across sections.
        var removed: [ItemPosition] = []
        var added: [ItemPosition] = []
        let oldSections = Dictionary(old.sections.map { ($0.id, $0.items) }, uniquingKeysWith: { first, _ in first })
        for section in new.sections {
            let before = oldSections[section.id] ?? []
            let difference = section.items.map(\.id).difference(from: before.map(\.id)).inferringMoves()
            for change in difference {
                switch change {
                case .insert(let offset, let id, let movedFrom):
                    let position = ItemPosition(id: id, section: section.id, index: offset)
                    if let movedFrom {
                        items.moved.append(ItemMove(id: id, from: ItemPosition(id: id, section: section.id, index: movedFrom), to: position))
                    } else {
                        added.append(position)
                    }
                case .remove(let offset, let id, let movedTo):
                    if movedTo == nil { removed.append(ItemPosition(id: id, section: section.id, index: offset)) }
                }
            }
        }
        let keptSections = Set(new.sections.map(\.id))
        for section in old.sections where !keptSections.contains(section.id) {
            removed += section.items.enumerated().map { ItemPosition(id: $1.id, section: section.id, index: $0) }
        }
        let addedByID = Dictionary(added.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let removedIDs = Set(removed.map(\.id))
        for position in removed {
            if let destination = addedByID[position.id] {
                items.moved.append(ItemMove(id: position.id, from: position, to: destination))
            } else {
                items.deleted.append(position)
            }
        }
        items.inserted = added.filter { !removedIDs.contains($0.id) }

        let oldItems = Self.positions(of: old)
        let oldByID = Dictionary(oldItems.map { ($0.position.id, $0.item) }, uniquingKeysWith: { first, _ in first })
        for (position, item) in Self.positions(of: new) {
            if let before = oldByID[position.id], before != item {
                items.changed.append(position)
            }
        }
    }

    private static func positions(of snapshot: Snapshot) -> [(position: ItemPosition, item: Snapshot.Item)] {
        snapshot.sections.flatMap { section in
            section.items.enumerated().map { index, item in
                (ItemPosition(id: item.id, section: section.id, index: index), item)
            }
        }
    }
}
