extension SceneSnapshot {
    /// What changed in a snapshot between two versions, as `GET …/snapshot?since=V` answers it:
    /// deletions at their old positions, insertions at their new ones, moves from one to the
    /// other, and items whose fields changed (at their new positions). Inserted and changed
    /// items carry their new content.
    public struct Changes: Sendable, Equatable {
        /// A section and its index.
        public struct SectionPosition: Sendable, Equatable {
            /// The section's identifier.
            public var id: String
            /// Its index: in the old snapshot for a deletion, in the new one otherwise.
            public var index: Int
        }

        /// A section that moved.
        public struct SectionMove: Sendable, Equatable {
            /// The section's identifier.
            public var id: String
            /// Its index in the old snapshot.
            public var from: Int
            /// Its index in the new snapshot.
            public var to: Int
        }

        /// An item and where it is.
        public struct ItemPosition: Sendable, Equatable {
            /// The item's identifier.
            public var id: String
            /// Its section's identifier.
            public var section: String
            /// Its index within the section.
            public var index: Int
            /// The item itself, for an insertion or a change.
            public var item: Item?
        }

        /// An item that moved, within a section or to another.
        public struct ItemMove: Sendable, Equatable {
            /// The item's identifier.
            public var id: String
            /// Where it was.
            public var from: ItemPosition
            /// Where it is.
            public var to: ItemPosition
        }

        /// The version the changes start from.
        public var since: UInt64
        /// The version they lead to.
        public var version: UInt64
        /// Sections that are new.
        public var insertedSections: [SectionPosition]
        /// Sections that are gone.
        public var deletedSections: [SectionPosition]
        /// Sections that moved.
        public var movedSections: [SectionMove]
        /// Items that are new.
        public var insertedItems: [ItemPosition]
        /// Items that are gone.
        public var deletedItems: [ItemPosition]
        /// Items that moved.
        public var movedItems: [ItemMove]
        /// Items whose fields or cell kind changed.
        public var changedItems: [ItemPosition]

        /// Whether nothing changed.
        public var isEmpty: Bool {
            insertedSections.isEmpty && deletedSections.isEmpty && movedSections.isEmpty
                && insertedItems.isEmpty && deletedItems.isEmpty && movedItems.isEmpty && changedItems.isEmpty
        }

        init(_ document: Components.Schemas.SnapshotChanges) throws {
            since = UInt64(clamping: document.since)
            version = UInt64(clamping: document.version)
            let sections = document.changes.sections
            insertedSections = sections.inserted.map { SectionPosition(id: $0.id, index: $0.index) }
            deletedSections = sections.deleted.map { SectionPosition(id: $0.id, index: $0.index) }
            movedSections = sections.moved.map { SectionMove(id: $0.id, from: $0.from, to: $0.to) }
            let items = document.changes.items
            insertedItems = items.inserted.map(ItemPosition.init)
            deletedItems = items.deleted.map(ItemPosition.init)
            movedItems = items.moved.map { ItemMove(id: $0.id, from: ItemPosition($0.from), to: ItemPosition($0.to)) }
            changedItems = items.changed.map(ItemPosition.init)
        }
    }

    /// This snapshot with `changes` applied: the snapshot of version ``Changes/version``, as the
    /// server holds it.
    /// - Throws: ``SceneClientError/changesDoNotApply(key:detail:)`` when the changes start from
    ///   another version or do not fit this snapshot.
    public func applying(_ changes: Changes) throws -> SceneSnapshot {
        func refuse(_ detail: String) -> SceneClientError {
            .changesDoNotApply(key: "", detail: detail)
        }
        guard changes.since == version else { throw refuse("the changes start from version \(changes.since), the copy is at \(version)") }

        var sectionSteps: [CollectionDifference<String>.Change] = []
        sectionSteps += changes.deletedSections.map { .remove(offset: $0.index, element: $0.id, associatedWith: nil) }
        sectionSteps += changes.movedSections.map { .remove(offset: $0.from, element: $0.id, associatedWith: $0.to) }
        sectionSteps += changes.insertedSections.map { .insert(offset: $0.index, element: $0.id, associatedWith: nil) }
        sectionSteps += changes.movedSections.map { .insert(offset: $0.to, element: $0.id, associatedWith: $0.from) }
        let oldSectionIDs = sections.map(\.id)
        guard let sectionDifference = CollectionDifference(sectionSteps),
            let newSectionIDs = oldSectionIDs.applying(sectionDifference)
        else { throw refuse("the section changes do not fit") }

        let oldItems = Dictionary(sections.map { ($0.id, $0.items) }, uniquingKeysWith: { first, _ in first })
        let oldByID = Dictionary(sections.flatMap(\.items).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var newSections: [Section] = []
        for sectionID in newSectionIDs {
            let before = oldItems[sectionID] ?? []
            var steps: [CollectionDifference<Item>.Change] = []
            for position in changes.deletedItems where position.section == sectionID {
                guard before.indices.contains(position.index) else { throw refuse("item \(position.id) is not at \(position.index) in \(sectionID)") }
                steps.append(.remove(offset: position.index, element: before[position.index], associatedWith: nil))
            }
            for move in changes.movedItems where move.from.section == sectionID && oldItems[sectionID] != nil {
                guard before.indices.contains(move.from.index) else { throw refuse("item \(move.id) is not at \(move.from.index) in \(sectionID)") }
                steps.append(.remove(offset: move.from.index, element: before[move.from.index], associatedWith: nil))
            }
            for position in changes.insertedItems where position.section == sectionID {
                guard let item = position.item else { throw refuse("inserted item \(position.id) comes without its content") }
                steps.append(.insert(offset: position.index, element: item, associatedWith: nil))
            }
            for move in changes.movedItems where move.to.section == sectionID {
                guard let item = oldByID[move.id] else { throw refuse("moved item \(move.id) is not in the copy") }
                steps.append(.insert(offset: move.to.index, element: item, associatedWith: nil))
            }
            guard let difference = CollectionDifference(steps), var items = before.applying(difference) else {
                throw refuse("the item changes do not fit section \(sectionID)")
            }
            for position in changes.changedItems where position.section == sectionID {
                guard let item = position.item, items.indices.contains(position.index), items[position.index].id == position.id else {
                    throw refuse("changed item \(position.id) is not at \(position.index) in \(sectionID)")
                }
                items[position.index] = item
            }
            newSections.append(Section(id: sectionID, items: items))
        }
        var applied = self
        applied.sections = newSections
        applied.version = changes.version
        return applied
    }
}

extension SceneSnapshot.Changes.ItemPosition {
    init(_ position: Components.Schemas.ItemPosition) {
        self.init(id: position.id, section: position.section, index: position.index, item: position.item.map(SceneSnapshot.Item.init))
    }
}
