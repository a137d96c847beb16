import MVVMJSON

/// What changed between two snapshots: sections and items inserted, deleted and moved (found
/// with the standard library's `CollectionDifference`, inferring moves), and items whose
/// identifier stayed but whose content changed (which an identity-only diff would miss).
package struct SnapshotDifference: Sendable, Equatable, Encodable {
    /// A section's identifier and index.
    package struct SectionPosition: Sendable, Equatable, Encodable {
        /// The section's identifier.
        package let id: String
        /// Its index (in the old snapshot for deletions, in the new one otherwise).
        package let index: Int
    }

    /// A section that moved.
    package struct SectionMove: Sendable, Equatable, Encodable {
        /// The section's identifier.
        package let id: String
        /// The index in the old snapshot.
        package let from: Int
        /// The index in the new snapshot.
        package let to: Int
    }

    /// An item's identifier and where it is; for an item inserted or changed, the item itself,
    /// so that a client can keep a copy of the snapshot current from the changes alone.
    package struct ItemPosition: Sendable, Equatable, Encodable {
        /// The item's identifier.
        package let id: String
        /// Its section's identifier.
        package let section: String
        /// Its index within the section.
        package let index: Int
        /// The item as the whole snapshot writes it (`id`, `cell` and its content's members):
        /// set in ``ItemChanges/inserted`` and ``ItemChanges/changed``, `nil` (and not written)
        /// elsewhere.
        package var item: JSONValue? = nil
    }

    /// An item that moved, within a section or to another.
    package struct ItemMove: Sendable, Equatable, Encodable {
        /// The item's identifier.
        package let id: String
        /// Where it was.
        package let from: ItemPosition
        /// Where it is.
        package let to: ItemPosition
    }

    /// Section changes.
    package struct SectionChanges: Sendable, Equatable, Encodable {
        /// Sections that are new.
        package var inserted: [SectionPosition] = []
        /// Sections that are gone.
        package var deleted: [SectionPosition] = []
        /// Sections that moved.
        package var moved: [SectionMove] = []
    }

    /// Item changes.
    package struct ItemChanges: Sendable, Equatable, Encodable {
        /// Items that are new.
        package var inserted: [ItemPosition] = []
        /// Items that are gone.
        package var deleted: [ItemPosition] = []
        /// Items that moved.
        package var moved: [ItemMove] = []
        /// Items with the same identifier and a new content or cell kind (at their new position).
        package var changed: [ItemPosition] = []
    }

    /// Section changes.
    package var sections = SectionChanges()
    /// Item changes.
    package var items = ItemChanges()

    /// Whether nothing changed.
    package var isEmpty: Bool {
        self == SnapshotDifference()
    }

    init() {}

    /// The changes that turn `old` into `new`.
    package init(from old: Snapshot, to new: Snapshot) {
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
        let newItems = Self.positions(of: new)
        let newByID = Dictionary(newItems.map { ($0.position.id, $0.item) }, uniquingKeysWith: { first, _ in first })
        items.inserted = added.filter { !removedIDs.contains($0.id) }.map { position in
            var inserted = position
            inserted.item = newByID[position.id]?.jsonValue
            return inserted
        }

        let oldByID = Dictionary(Self.positions(of: old).map { ($0.position.id, $0.item) }, uniquingKeysWith: { first, _ in first })
        for (position, item) in newItems {
            if let before = oldByID[position.id], before != item {
                var changed = position
                changed.item = item.jsonValue
                items.changed.append(changed)
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
