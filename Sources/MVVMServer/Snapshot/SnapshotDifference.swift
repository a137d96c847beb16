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

        let oldItems = Self.positions(of: old)
        let newItems = Self.positions(of: new)
        let itemDiff = newItems.map(\.position.id).difference(from: oldItems.map(\.position.id)).inferringMoves()
        for change in itemDiff {
            switch change {
            case .insert(let offset, _, let movedFrom):
                if let movedFrom {
                    items.moved.append(ItemMove(id: newItems[offset].position.id, from: oldItems[movedFrom].position, to: newItems[offset].position))
                } else {
                    items.inserted.append(newItems[offset].position)
                }
            case .remove(let offset, _, let movedTo):
                if movedTo == nil { items.deleted.append(oldItems[offset].position) }
            }
        }
        let oldByID = Dictionary(oldItems.map { ($0.position.id, $0.item) }, uniquingKeysWith: { first, _ in first })
        for (position, item) in newItems {
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
