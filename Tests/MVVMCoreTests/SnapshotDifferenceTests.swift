import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// What changed between two snapshots, as a client applies it to its list (MVVMKit's
    /// diffable data source): sections and items inserted, deleted, moved, and items whose
    /// identifier stayed while their content changed.
    ///
    /// Positions are written `id section[index]` and moves `id s1[1] → s2[0]` to keep the
    /// expectations readable.
    @Suite("Snapshot differences")
    struct SnapshotDifferenceTests {
        struct Cell: Encodable {
            var title: String
        }

        /// A snapshot from `[(section, [item])]`; an item's content is its id unless written `id=title`.
        private func snapshot(_ sections: [(String, [String])]) throws -> Snapshot {
            try Snapshot(
                sections: sections.map { id, items in
                    Snapshot.Section(
                        id: id,
                        items: try items.map { item in
                            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                            return try Snapshot.Item(id: parts[0], cell: "row", content: Cell(title: parts.count > 1 ? parts[1] : parts[0]))
                        })
                })
        }

        private func describe(_ positions: [SnapshotDifference.ItemPosition]) -> [String] {
            positions.map { "\($0.id) \($0.section)[\($0.index)]" }
        }

        private func describe(_ moves: [SnapshotDifference.ItemMove]) -> [String] {
            moves.map { "\($0.id) \($0.from.section)[\($0.from.index)] → \($0.to.section)[\($0.to.index)]" }
        }

        @Test("Two equal snapshots have an empty difference")
        func equalSnapshots() throws {
            let old = try snapshot([("s", ["a", "b"])])
            #expect(SnapshotDifference(from: old, to: old).isEmpty)
            #expect(SnapshotDifference(from: Snapshot(), to: Snapshot()).isEmpty)
            #expect(!SnapshotDifference(from: Snapshot(), to: old).isEmpty)
        }

        @Test("Sections inserted, deleted and moved are reported with their indexes")
        func sectionChanges() throws {
            let old = try snapshot([("a", []), ("b", []), ("c", []), ("d", [])])
            let new = try snapshot([("b", []), ("c", []), ("a", []), ("e", [])])
            let sections = SnapshotDifference(from: old, to: new).sections
            #expect(sections.inserted.map { "\($0.id) [\($0.index)]" } == ["e [3]"])
            #expect(sections.deleted.map { "\($0.id) [\($0.index)]" } == ["d [3]"])
            #expect(sections.moved.map { "\($0.id) [\($0.from)] → [\($0.to)]" } == ["a [0] → [2]"])
        }

        @Test("Items inserted and deleted are reported at their section and index (deletions in the old snapshot)")
        func itemInsertionsAndDeletions() throws {
            let old = try snapshot([("s1", ["a", "b"]), ("s2", ["c"])])
            let new = try snapshot([("s1", ["a"]), ("s2", ["c", "d"])])
            let difference = SnapshotDifference(from: old, to: new)
            #expect(describe(difference.items.deleted) == ["b s1[1]"])
            #expect(describe(difference.items.inserted) == ["d s2[1]"])
            #expect(difference.items.moved.isEmpty)
            #expect(difference.items.changed.isEmpty)
            #expect(difference.sections.inserted.isEmpty && difference.sections.deleted.isEmpty && difference.sections.moved.isEmpty)
        }

        @Test("An item moving within its section is one move, not a deletion and an insertion")
        func moveWithinASection() throws {
            let old = try snapshot([("s", ["a", "b", "c"])])
            let new = try snapshot([("s", ["c", "a", "b"])])
            let difference = SnapshotDifference(from: old, to: new)
            #expect(describe(difference.items.moved) == ["c s[2] → s[0]"])
            #expect(difference.items.inserted.isEmpty && difference.items.deleted.isEmpty && difference.items.changed.isEmpty)
        }

        @Test("An item moving to another section is a move, even when the flattened order stays the same")
        func moveToAnotherSection() throws {
            let old = try snapshot([("s1", ["a", "b"]), ("s2", ["c"])])
            let new = try snapshot([("s1", ["a"]), ("s2", ["b", "c"])])
            let difference = SnapshotDifference(from: old, to: new)
            #expect(describe(difference.items.moved) == ["b s1[1] → s2[0]"])
            #expect(difference.items.inserted.isEmpty && difference.items.deleted.isEmpty && difference.items.changed.isEmpty)
        }

        @Test("An item moving to a later section is one move, and the items it passes do not move")
        func moveToALaterSection() throws {
            let old = try snapshot([("s1", ["a", "b"]), ("s2", ["c"])])
            let new = try snapshot([("s1", ["b"]), ("s2", ["c", "a"])])
            let difference = SnapshotDifference(from: old, to: new)
            #expect(describe(difference.items.moved) == ["a s1[0] → s2[1]"])
            #expect(difference.items.inserted.isEmpty && difference.items.deleted.isEmpty)
        }

        @Test("The items of a section that moves stay where they are in it")
        func itemsFollowTheirSection() throws {
            let old = try snapshot([("s1", ["a"]), ("s2", ["b", "c"])])
            let new = try snapshot([("s2", ["b", "c"]), ("s1", ["a"])])
            let difference = SnapshotDifference(from: old, to: new)
            #expect(difference.sections.moved.count == 1)
            #expect(describe(difference.items.moved) == [])
        }

        @Test("An item whose id stays but whose content changes is reported as changed, at its new position")
        func contentChangeWithTheSameID() throws {
            let old = try snapshot([("s", ["a=Hoth", "b=Endor"])])
            let new = try snapshot([("s", ["x", "a=Hoth (base)", "b=Endor"])])
            let difference = SnapshotDifference(from: old, to: new)
            #expect(describe(difference.items.changed) == ["a s[1]"])
            #expect(describe(difference.items.inserted) == ["x s[0]"])
            #expect(difference.items.moved.isEmpty && difference.items.deleted.isEmpty)
        }

        @Test("An item that moves and changes is both moved and changed")
        func movedAndChanged() throws {
            let old = try snapshot([("s1", ["a=one"]), ("s2", [])])
            let new = try snapshot([("s1", []), ("s2", ["a=two"])])
            let difference = SnapshotDifference(from: old, to: new)
            #expect(describe(difference.items.moved) == ["a s1[0] → s2[0]"])
            #expect(describe(difference.items.changed) == ["a s2[0]"])
        }

        @Test("A change of cell kind alone counts as a content change")
        func cellKindChange() throws {
            let old = try Snapshot(sections: [.init(id: "s", items: [try .init(id: "a", cell: "row", content: Cell(title: "t"))])])
            let new = try Snapshot(sections: [.init(id: "s", items: [try .init(id: "a", cell: "banner", content: Cell(title: "t"))])])
            #expect(describe(SnapshotDifference(from: old, to: new).items.changed) == ["a s[0]"])
        }
    }
}
