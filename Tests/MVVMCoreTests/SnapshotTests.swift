import Foundation
import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// Diffable snapshots (MVVMKit): sections of items with unique identifiers; a cell
    /// interaction names its item by identifier or by position and reaches the view model.
    @Suite("Snapshots and item references")
    struct SnapshotTests {
        struct Cell: Encodable {
            var title: String
        }

        @Test("A duplicate item identifier, even across sections, is rejected")
        func duplicateItemRejected() throws {
            #expect(throws: SnapshotError.duplicateItem("film-1")) {
                try Snapshot(sections: [
                    .init(id: "a", items: [try .init(id: "film-1", cell: "film", content: Cell(title: "one"))]),
                    .init(id: "b", items: [try .init(id: "film-1", cell: "film", content: Cell(title: "again"))]),
                ])
            }
        }

        @Test("Duplicates are found among few identifiers and among many, first or last", arguments: [2, 16, 17, 400])
        func duplicatesAmongMany(count: Int) throws {
            func items(_ ids: [String]) -> [Snapshot.Item] {
                ids.map { Snapshot.Item(id: $0, cell: "row", fields: [:]) }
            }
            let ids = (0..<count).map { "item-\($0)" }
            let snapshot = try Snapshot(sections: [.init(id: "all", items: items(ids))])
            #expect(snapshot.sections[0].items.count == count)
            #expect(throws: SnapshotError.duplicateItem("item-0")) {
                try Snapshot(sections: [.init(id: "all", items: items(ids + ["item-0"]))])
            }
            #expect(throws: SnapshotError.duplicateItem(ids[count - 1])) {
                try Snapshot(sections: [.init(id: "a", items: items(ids)), .init(id: "b", items: items([ids[count - 1]]))])
            }
            let sectionIDs = (0..<count).map { "section-\($0)" }
            #expect(throws: SnapshotError.duplicateSection(sectionIDs[count - 1])) {
                try Snapshot(sections: (sectionIDs + [sectionIDs[count - 1]]).map { .init(id: $0, items: []) })
            }
        }

        @Test("The snapshot document written directly is the serialization of its JSON value")
        func documentBytesMatchItsValue() throws {
            let snapshot = try Snapshot(sections: [
                .init(
                    id: "films",
                    items: [
                        .init(
                            id: "4", cell: "film",
                            fields: [
                                "title": .string("A New Hope \"IV\""), "episode": .number(4), "year": .number(1977.5),
                                "tags": .array([.bool(true), .null]),
                            ]),
                        // Content members named like the item's own are overridden by them.
                        .init(
                            id: "5", cell: "film",
                            fields: ["id": .string("not this"), "cell": .string("nor this"), "Zeta": .object(["b": .number(1), "a": .string("é")])]),
                    ]),
                .init(id: "empty", items: []),
            ])
            let document = SnapshotDocument(version: 42, sections: snapshot.sections)
            #expect(document.jsonData == document.jsonValue.jsonData)
            let parsed = try #require(JSONValue(json: document.jsonData))
            #expect(parsed == document.jsonValue)
        }

        @Test("A duplicate section identifier is rejected")
        func duplicateSectionRejected() {
            let error = #expect(throws: SnapshotError.duplicateSection("a")) {
                try Snapshot(sections: [.init(id: "a", items: []), .init(id: "a", items: [])])
            }
            #expect(error?.description == "the section identifier 'a' appears twice")
        }

        @Test("An item's JSON has its id, its cell kind and its content's members side by side")
        func itemEncoding() throws {
            let item = try Snapshot.Item(id: "film-4", cell: "film", content: Cell(title: "A New Hope"))
            #expect(item.content == ["title": .string("A New Hope")])
            #expect(String(decoding: item.jsonValue.jsonData, as: UTF8.self) == #"{"cell":"film","id":"film-4","title":"A New Hope"}"#)
            let scalar = try Snapshot.Item(id: "n", cell: "number", content: 42)
            #expect(scalar.content == ["value": .number(42)], "a content that is not an object is kept under 'value'")
        }

        @Test("An item reference decodes from an id (string or number) or from a section and item index")
        func itemReferenceDecoding() throws {
            func reference(_ json: String) throws -> ItemReference {
                try JSONCoding.decode(ItemReference.self, from: Data(json.utf8))
            }
            #expect(try reference(#"{"id": "film-5"}"#) == .id("film-5"))
            #expect(try reference(#"{"id": 5}"#) == .id("5"))
            #expect(try reference(#"{"section": 1, "item": 0}"#) == .position(section: 1, item: 0))
            #expect(throws: DecodingError.self) { try reference(#"{"section": 1}"#) }
            #expect(throws: DecodingError.self) { try reference(#"{}"#) }
        }

        @Test("A snapshot finds an item by id and by (section, item), and answers nil out of range")
        func findingItems() throws {
            let snapshot = try FilmListViewModel().snapshot
            #expect(snapshot.item(at: .id("film-5"))?.content["title"] == .string("The Empire Strikes Back"))
            #expect(snapshot.item(at: .position(section: 1, item: 0))?.id == "film-1")
            #expect(snapshot.item(at: .position(section: 0, item: 2))?.id == "film-6")
            #expect(snapshot.item(at: .id("film-9")) == nil)
            #expect(snapshot.item(at: .position(section: 0, item: 3)) == nil)
            #expect(snapshot.item(at: .position(section: 2, item: 0)) == nil)
            #expect(snapshot.item(at: .position(section: -1, item: 0)) == nil)
        }

        @Test("An action addressed to an item, by id or by position, reaches the view model")
        func actionReachesTheViewModel() async throws {
            let store = ViewModelStore()
            let list = try store.get(FilmListViewModel.self, key: "films", factory: FilmListViewModel.factory)
            #expect(store.entry("films")?.snapshot == list.snapshot, "the snapshot is published beside the output")

            try await store.perform(action: "select", arguments: ["item": .object(["id": .string("film-5")])], key: "films")
            #expect(list.output.selected == "film-5")
            try await store.perform(action: "select", arguments: ["item": .object(["section": .number(1), "item": .number(0)])], key: "films")
            #expect(list.output.selected == "film-1")
            let state = try JSONCoding.decode(SceneState<EmptyInput, FilmListViewModel.Output>.self, from: #require(store.entry("films")).document)
            #expect(state.output.selected == "film-1")
        }

        @Test("A context publishes the snapshot on its own topic, beside the scene's state")
        func snapshotIsPublished() async throws {
            let catalogue = SceneCatalogue(
                scenes: [Scene("films", key: "films", viewModel: FilmListViewModel.self, factory: FilmListViewModel.factory)], rootKey: "films")
            let context = ContextActor(id: "snapshot", catalogue: catalogue, dependencies: DependencyValues())
            let state = try await context.state(of: "films")
            let published = try #require(context.board.document(.snapshot("films")))
            #expect(try published.snapshot == FilmListViewModel().snapshot)
            #expect(published.version <= state.version, "the snapshot keeps its version until it changes")
            let json = try JSONCoding.decode(JSONValue.self, from: published.body)
            #expect(json.objectValue?["kind"] == .string("snapshot"))
            await context.close()
        }

        @Test("An action addressed to a missing item is refused with itemNotFound; the output stays")
        func missingItem() async throws {
            let store = ViewModelStore()
            let list = try store.get(FilmListViewModel.self, key: "films", factory: FilmListViewModel.factory)
            let error = await #expect(throws: ActionError.self) {
                try await store.perform(action: "select", arguments: ["item": .object(["id": .string("film-9")])], key: "films")
            }
            // The reference reads as the client wrote it, in the answer's detail.
            #expect(error?.description == "no item with id film-9 in the snapshot")
            #expect(
                ActionError.itemNotFound("\(ItemReference.position(section: 1, item: 4))").description
                    == "no item at section 1, item 4 in the snapshot")
            #expect(list.output.selected == nil)
        }

        @Test("An unknown action or bad arguments are refused before reaching the view model")
        func unknownActionAndBadArguments() async throws {
            let store = ViewModelStore()
            _ = try store.get(FilmListViewModel.self, key: "films", factory: FilmListViewModel.factory)
            await #expect(throws: ActionError.unknown("delete")) {
                try await store.perform(action: "delete", arguments: [:], key: "films")
            }
            let error = await #expect(throws: ActionError.self) {
                try await store.perform(action: "select", arguments: ["item": .string("film-5")], key: "films")
            }
            guard case .invalidArguments(let input) = error else {
                Issue.record("expected invalid arguments, got \(String(describing: error))")
                return
            }
            #expect(input.member == "item")
        }
    }
}
