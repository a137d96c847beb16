import Foundation
import MVVMClient
import MVVMJSON
import MVVMServerTesting
import TestSupport
import Testing

@testable import MVVMServer

/// The app's own contract (`GET /openapi.json`): typed operations on each scene's paths, and
/// `TestServer` checking every answer against it.
@Suite("The app's contract, typed, and answers checked against it")
struct ContractCheckTests {
    /// A shop's list: typed input, output and actions.
    final class Shelf: ViewModel, SnapshotProviding {
        struct Input: ViewModelInput {
            var query = ""
            var limit: Int?
        }
        enum Sort: String, Codable, Sendable { case title, price }
        enum Filter: Codable, Sendable, Equatable {
            case all
            case cheaperThan(cents: Int)
        }
        struct Item: Codable, Sendable, Equatable {
            var title: String
            var cents: Int
        }
        struct Output: Codable, Sendable, Equatable {
            var items: [Item] = []
            var sort = Sort.title
            var filter = Filter.all
            var note: String?
        }
        enum Action: ViewModelAction {
            case add(title: String, cents: Int)
            case select(ItemReference)
            case clear
            case addUnknownCell
        }
        static let cells = [SnapshotCell("item", content: Item.self)]
        var input = Input()
        private(set) var output = Output()
        private(set) var snapshot = Snapshot()

        func perform(_ action: Action) async throws {
            switch action {
            case .add(let title, let cents): output.items.append(Item(title: title, cents: cents))
            case .select: output.note = "selected"
            case .clear: output = Output(filter: .cheaperThan(cents: 100))
            case .addUnknownCell:
                let odd = Snapshot.Item(id: "odd", cell: "mystery", fields: ["title": .string("?")])
                snapshot = try Snapshot(sections: [Snapshot.Section(id: "all", items: snapshot.sections.flatMap(\.items) + [odd])])
                return
            }
            let items = try output.items.enumerated().map { try Snapshot.Item(id: String($0.offset), cell: "item", content: $0.element) }
            snapshot = try Snapshot(sections: [Snapshot.Section(id: "all", items: items)])
        }
    }

    /// A price whose output holds money whose JSON is not what its decoding says.
    final class Price: ViewModel {
        struct Output: Codable, Sendable, Equatable { var price = MisdescribedMoney(cents: 1250) }
        var input = EmptyInput()
        let output = Output()
    }

    static let shop = SceneCatalogue(
        scenes: [
            Scene("shelf", key: "shelf/{aisle}", viewModel: Shelf.self, factory: SingleViewModelFactory { _ in Shelf() }),
            Scene("price", key: "price", viewModel: Price.self, factory: SingleViewModelFactory { _ in Price() }),
        ], rootKey: "shelf/1")

    private static func contract() -> [String: JSONValue] {
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        return Application(configuration: ApplicationConfiguration(), catalogue: shop, logger: quiet).contract.objectValue ?? [:]
    }

    @Test("Each scene has typed operations on its own paths, named from the scene and its actions, linked from POST /sessions")
    func typedOperations() throws {
        let contract = Self.contract()
        let paths = try #require(contract["paths"]?.objectValue)
        let shelf = "/sessions/{session}/scenes/shelf/{aisle}"
        for (path, method, id) in [
            (shelf, "get", "getShelfState"), (shelf + "/input", "post", "setShelfInput"), (shelf + "/actions/add", "post", "performShelfAdd"),
            (shelf + "/actions/select", "post", "performShelfSelect"), (shelf + "/actions/clear", "post", "performShelfClear"),
            ("/sessions/{session}/scenes/price", "get", "getPriceState"),
        ] {
            #expect(paths[path]?.objectValue?[method]?.objectValue?["operationId"] == .string(id), "\(method) \(path)")
        }
        #expect(paths["/sessions/{session}/scenes/price/input"] == nil, "a scene without input members takes none")
        #expect(paths["/sessions/{id}/scenes/{key}"] != nil, "the framework's generic operations stay")
        let schemas = try #require(contract["components"]?.objectValue?["schemas"]?.objectValue)
        let state = try #require(schemas["Scene-shelf-State"]?.objectValue?["properties"]?.objectValue)
        #expect(state["output"] == .object(["$ref": .string("#/components/schemas/ContractCheckTests.Shelf.Output")]))
        #expect(state["scene"]?.objectValue?["const"] == .string("shelf"))
        #expect(schemas["Scene-shelf-InputPatch"]?.objectValue?["required"] == nil, "every input member optional in the body")
        #expect(schemas["ContractCheckTests.Shelf.Input"]?.objectValue?["required"] == .array([.string("query")]))
        let add = try #require(schemas["Scene-shelf-Action-add"]?.objectValue)
        #expect(add["required"] == .array([.string("title"), .string("cents")]))
        let select = try #require(schemas["Scene-shelf-Action-select"]?.objectValue)
        #expect(select["anyOf"].map { if case .array(let choices) = $0 { choices.count } else { 0 } } == 2, "an item reference, in place")
        #expect(add["additionalProperties"] == nil, "other arguments are ignored, not refused")
        #expect(schemas["Scene-shelf-Action-clear"]?.objectValue?["properties"] == .object([:]))
        let links = paths["/sessions"]?.objectValue?["post"]?.objectValue?["responses"]?.objectValue?["201"]?.objectValue?["links"]?.objectValue
        #expect(links?["getShelfState"]?.objectValue?["parameters"] == .object(["session": .string("$response.body#/id")]))
    }

    @Test("The same app gives the same bytes at every start")
    func stableBytes() {
        #expect(JSONValue.object(Self.contract()).jsonData == JSONValue.object(Self.contract()).jsonData)
    }

    @Test("Answers that fit the contract pass the check, through inputs, actions and their payloads", arguments: TestMode.allCases)
    func fittingAnswers(mode: TestMode) async throws {
        try await TestServer(catalogue: Self.shop).test(mode) { client in
            let session = try await client.createSession()
            let shelf = session.scene("shelf/1", input: Shelf.Input.self, output: Shelf.Output.self)
            struct Add: Encodable {
                var title: String
                var cents: Int
            }
            _ = try await shelf.setInput(members: ["limit": 3])
            var copy = try await shelf.snapshotCopy()
            _ = try await shelf.perform("add", arguments: Add(title: "Tea", cents: 350))
            // The changes since the copy's version: an inserted item, typed by its cell.
            try await copy.update(wait: .seconds(5))
            #expect(copy.snapshot.sections.first?.items.map(\.id) == ["0"])
            _ = try await shelf.perform("select", arguments: ["id": 1])
            #expect(try await shelf.snapshot().sections.first?.items.count == 1, "a typed item")
            let cleared = try await shelf.perform("clear")
            #expect(cleared.state.output.filter == .cheaperThan(cents: 100))
            await #expect(throws: ProblemDetails.self) { try await shelf.setInput(members: ["limit": "many"]) }
        }
    }

    @Test(
        "An answer that is not what the contract promises fails the call, naming the member; the check can be turned off",
        arguments: TestMode.allCases)
    func violations(mode: TestMode) async throws {
        try await TestServer(catalogue: Self.shop).test(mode) { client in
            let price = try await client.createSession().scene("price", input: NoInput.self, output: Price.Output.self)
            let violation = await #expect(throws: ContractViolation.self) { try await price.state() }
            #expect(violation?.problem.contains("/output/price: is string, not integer") == true, "\(violation.map(String.init(describing:)) ?? "")")
            #expect(violation?.path.hasSuffix("/scenes/price") == true)
            let shelf = try await client.createSession().scene("shelf/1", input: Shelf.Input.self, output: Shelf.Output.self)
            var copy = try await shelf.snapshotCopy()
            _ = try await shelf.perform("addUnknownCell")
            // The changes since the copy's version, then the whole snapshot: each checked.
            var changes: ContractViolation?
            do { _ = try await copy.update(wait: .seconds(5)) } catch let violation as ContractViolation { changes = violation }
            #expect(changes?.problem.contains("/changes/items/inserted/0/item") == true, "\(changes.map(String.init(describing:)) ?? "no violation")")
            let cell = await #expect(throws: ContractViolation.self) { try await shelf.snapshot() }
            #expect(
                cell?.problem.contains("/sections/0/items/0") == true,
                "an item of a cell the scene does not declare: \(cell.map(String.init(describing:)) ?? "")")
        }
        var unchecked = TestServer(catalogue: Self.shop)
        unchecked.checksAnswers = false
        try await unchecked.test(mode) { client in
            struct Written: Codable, Sendable { var price: String }
            let price = try await client.createSession().scene("price", input: NoInput.self, output: Written.self)
            #expect(try await price.state().output.price == "12.50")
        }
    }
}

/// The drift check: the committed contract against the current one, each change classed.
@Suite("Changes to the app's contract, and which break clients")
struct ContractChangeTests {
    private static let output = "ContractCheckTests.Shelf.Output"

    /// The shop's current contract, written to a file after `edit` changed it: as if committed
    /// before the app changed.
    private func changes(committing edit: (inout [String: JSONValue]) -> Void) throws -> [ContractChange] {
        var schemas = try #require(JSONValue(json: Application.contract(of: ContractCheckTests.shop))?.objectValue)
        edit(&schemas)
        let file = FileManager.default.temporaryDirectory.appending(path: "contract-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONValue.object(schemas).jsonData.write(to: file)
        return try TestServer(catalogue: ContractCheckTests.shop).contractChanges(since: file)
    }

    /// Edits a member of a component schema in the document.
    private static func editSchema(_ document: inout [String: JSONValue], _ name: String, _ edit: (inout [String: JSONValue]) -> Void) {
        guard var components = document["components"]?.objectValue, var schemas = components["schemas"]?.objectValue,
            var schema = schemas[name]?.objectValue
        else { return }
        edit(&schema)
        schemas[name] = .object(schema)
        components["schemas"] = .object(schemas)
        document["components"] = .object(components)
    }

    private static func editProperties(_ schema: inout [String: JSONValue], _ edit: (inout [String: JSONValue]) -> Void) {
        var properties = schema["properties"]?.objectValue ?? [:]
        edit(&properties)
        schema["properties"] = .object(properties)
    }

    @Test("The contract as committed has no changes; `--contract` writes the same bytes as the check reads")
    func unchanged() throws {
        #expect(try changes { _ in }.isEmpty)
    }

    @Test("A member the committed contract had and the app lost breaks clients; one it gained optionally does not")
    func members() throws {
        let found = try changes { document in
            Self.editSchema(&document, Self.output) { schema in
                Self.editProperties(&schema) { $0["discount"] = .object(["type": .string("integer")]) }
                Self.editProperties(&schema) { $0["note"] = nil }
            }
        }
        #expect(
            found.map(\.description) == [
                "breaks clients: schema \(Self.output), /properties/discount: removed",
                "compatible: schema \(Self.output), /properties/note: added, optional",
            ])
    }

    @Test("A type changed, a member newly required, an enum value or a case removed break clients; an enum value added does not")
    func breakingChanges() throws {
        let found = try changes { document in
            Self.editSchema(&document, "ContractCheckTests.Shelf.Item") { schema in
                Self.editProperties(&schema) { $0["cents"] = .object(["type": .string("string")]) }
            }
            Self.editSchema(&document, "ContractCheckTests.Shelf.Input") { $0["required"] = .array([]) }
            Self.editSchema(&document, "ContractCheckTests.Shelf.Sort") { $0["enum"] = .array([.string("title"), .string("rating")]) }
            Self.editSchema(&document, "ContractCheckTests.Shelf.Filter") { schema in
                if case .array(let choices)? = schema["oneOf"] {
                    schema["oneOf"] = .array(choices + [JSONValue.object(["type": .string("object"), "required": .array([.string("onSale")])])])
                }
            }
        }
        #expect(
            found.filter(\.breaksClients).map(\.description) == [
                "breaks clients: schema ContractCheckTests.Shelf.Filter: case onSale removed",
                "breaks clients: schema ContractCheckTests.Shelf.Input, /properties/query: newly required",
                "breaks clients: schema ContractCheckTests.Shelf.Item, /properties/cents: is integer instead of string",
                "breaks clients: schema ContractCheckTests.Shelf.Sort: enum value \"rating\" removed",
            ])
        #expect(
            found.filter { !$0.breaksClients }.map(\.description) == ["compatible: schema ContractCheckTests.Shelf.Sort: enum value \"price\" added"])
    }

    @Test("An operation or a schema the app lost breaks clients")
    func operations() throws {
        let found = try changes { document in
            var paths = document["paths"]?.objectValue ?? [:]
            paths["/sessions/{session}/scenes/shelf/{aisle}/actions/restock"] = .object(["post": .object([:])])
            document["paths"] = .object(paths)
            Self.editSchema(&document, Self.output) { _ in }
            var components = document["components"]?.objectValue ?? [:]
            var schemas = components["schemas"]?.objectValue ?? [:]
            schemas["Scene-shelf-Action-restock"] = .object([:])
            components["schemas"] = .object(schemas)
            document["components"] = .object(components)
        }
        #expect(
            found.map(\.description) == [
                "breaks clients: POST /sessions/{session}/scenes/shelf/{aisle}/actions/restock: removed",
                "breaks clients: schema Scene-shelf-Action-restock: removed",
            ])
    }
}
