import Foundation
import MVVMJSON
import TestSupport
import Testing

@testable import MVVMCore

/// The mapping rules of ``TypeDescriber``: each pinned by the schema written and by real
/// encodings (the server's encoder) that must fit it, and values that must not.
@Suite("Schemas from Swift types")
struct TypeDescriberTests {
    struct Plain: Codable {
        var name: String
        var count: Int
        var ratio: Double
        var done: Bool
        var note: String?
    }
    enum Genre: String, Codable { case drama, comedy }
    enum Level: Int, Codable {
        case low = 1
        case high = 5
    }
    enum Change: Codable {
        case reset
        case rename(title: String)
        case move(Int, to: Int)
        case pick(Plain?)
    }
    struct Tree: Codable {
        var label: String
        var children: [Tree]
        var parent: Box?
    }
    final class Box: Codable {
        var tree: Tree?
        init(tree: Tree?) { self.tree = tree }
    }
    struct Shelf: Codable {
        var books: [Book]
        var byTitle: [String: Book]
        var counts: [Int: Int]
        var tags: Set<String>
        var slots: [Int?]
        var when: Date
        var link: URL
        var id: UUID
        var blob: Data
    }
    struct Book: Codable {
        var title: String
        var genre: Genre
        var level: Level
    }

    /// Describes `type`; the components under their final names, and the schema written for it.
    private func described<Value: Decodable>(_ type: Value.Type) -> (schema: JSONValue, components: [String: JSONValue], warnings: [String]) {
        let describer = TypeDescriber()
        let schema = describer.schema(of: type)
        let (components, names) = describer.finish()
        return (names.rewrite(schema), components, describer.warnings)
    }

    /// Whether the server's encoding of `value` fits `type`'s schema; the mismatch when not.
    private func mismatch<Value: Codable>(_ value: Value, _ type: Value.Type = Value.self) throws -> JSONSchemaValidator.Mismatch? {
        let (schema, components, _) = described(type)
        return JSONSchemaValidator(components: components).mismatch(of: try JSONValue(encoding: value), against: schema)
    }

    private func component(_ name: String, in components: [String: JSONValue]) throws -> [String: JSONValue] {
        try #require(components[name]?.objectValue, "components: \(components.keys.sorted())")
    }

    @Test("A struct is an object of exactly its members; an optional is not required and is left out when nil, never null")
    func optionalMembers() throws {
        let (schema, components, warnings) = described(Plain.self)
        #expect(schema == .object(["$ref": .string("#/components/schemas/TypeDescriberTests.Plain")]))
        let plain = try component("TypeDescriberTests.Plain", in: components)
        #expect(plain["required"] == .array(["name", "count", "ratio", "done"].map(JSONValue.string)))
        #expect(plain["additionalProperties"] == .bool(false))
        let properties = try #require(plain["properties"]?.objectValue)
        #expect(properties["count"] == .object(["type": .string("integer")]))
        #expect(properties["ratio"] == .object(["type": .string("number")]))
        #expect(properties["note"] == .object(["type": .string("string")]), "an omitted nil: not nullable")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(try mismatch(Plain(name: "a", count: 1, ratio: 0.5, done: true, note: nil)) == nil)
        #expect(try mismatch(Plain(name: "a", count: 1, ratio: 2, done: false, note: "n")) == nil)
        let validator = JSONSchemaValidator(components: components)
        let nullNote = JSONValue.object(["name": .string("a"), "count": .integer(1), "ratio": .number(1), "done": .bool(true), "note": .null])
        #expect(validator.mismatch(of: nullNote, against: schema)?.path == "/note")
        let fractionalCount = JSONValue.object(["name": .string("a"), "count": .number(1.5), "ratio": .number(1), "done": .bool(true)])
        #expect(validator.mismatch(of: fractionalCount, against: schema)?.path == "/count")
    }

    @Test("String and Int raw-value enums are an enum of their raw values")
    func rawValueEnums() throws {
        let (_, components, _) = described(Book.self)
        #expect(
            try component("TypeDescriberTests.Genre", in: components) == [
                "type": .string("string"), "enum": .array([.string("drama"), .string("comedy")]),
            ])
        #expect(
            try component("TypeDescriberTests.Level", in: components) == ["type": .string("integer"), "enum": .array([.integer(1), .integer(5)])])
        #expect(try mismatch(Book(title: "t", genre: .comedy, level: .high)) == nil)
    }

    @Test("An enum with payloads is a oneOf of single-member objects, as Codable writes it, with {} for a case without payload")
    func payloadEnums() throws {
        let (_, components, warnings) = described(Change.self)
        let change = try component("TypeDescriberTests.Change", in: components)
        let choices = try #require(change["oneOf"].flatMap { if case .array(let items) = $0 { items } else { nil } })
        #expect(choices.count == 4)
        let reset = try #require(choices.first?.objectValue)
        #expect(reset["required"] == .array([.string("reset")]))
        #expect(reset["properties"]?.objectValue?["reset"]?.objectValue?["properties"] == .object([:]))
        #expect(warnings.isEmpty, "\(warnings)")
        for value in [Change.reset, .rename(title: "x"), .move(1, to: 2), .pick(nil), .pick(Plain(name: "", count: 0, ratio: 0, done: false))] {
            #expect(try mismatch(value) == nil, "\(value)")
        }
        let validator = JSONSchemaValidator(components: components)
        let schema = JSONValue.object(["$ref": .string("#/components/schemas/TypeDescriberTests.Change")])
        #expect(validator.mismatch(of: .object(["rename": .object(["title": .integer(1)])]), against: schema)?.path == "/rename/title")
        #expect(validator.mismatch(of: .string("reset"), against: schema) != nil, "a payload-less case is {\"reset\": {}}, not a string")
    }

    @Test("A type that refers to itself, directly or through another, refers to its own component")
    func recursiveTypes() throws {
        let (_, components, warnings) = described(Tree.self)
        let tree = try component("TypeDescriberTests.Tree", in: components)
        let children = tree["properties"]?.objectValue?["children"]
        #expect(children == .object(["type": .string("array"), "items": .object(["$ref": .string("#/components/schemas/TypeDescriberTests.Tree")])]))
        #expect(components["TypeDescriberTests.Box"] != nil)
        #expect(warnings.isEmpty, "\(warnings)")
        let leaf = Tree(label: "leaf", children: [], parent: nil)
        #expect(
            try mismatch(Tree(label: "root", children: [leaf, Tree(label: "b", children: [leaf], parent: Box(tree: leaf))], parent: Box(tree: nil)))
                == nil)
    }

    @Test("Arrays, sets, dictionaries, optionals written as null, and the scalars as the encoder writes them (Date as seconds)")
    func collectionsAndScalars() throws {
        let (_, components, warnings) = described(Shelf.self)
        let properties = try #require(try component("TypeDescriberTests.Shelf", in: components)["properties"]?.objectValue)
        #expect(
            properties["byTitle"]
                == .object([
                    "type": .string("object"), "additionalProperties": .object(["$ref": .string("#/components/schemas/TypeDescriberTests.Book")]),
                ]))
        #expect(
            properties["slots"] == .object(["type": .string("array"), "items": .object(["type": .array([.string("integer"), .string("null")])])]))
        #expect(properties["when"]?.objectValue?["type"] == .string("number"))
        #expect(properties["id"]?.objectValue?["format"] == .string("uuid"))
        #expect(properties["blob"]?.objectValue?["contentEncoding"] == .string("base64"))
        #expect(warnings.isEmpty, "\(warnings)")
        let book = Book(title: "t", genre: .drama, level: .low)
        let shelf = Shelf(
            books: [book, book], byTitle: ["t": book], counts: [3: 4], tags: ["a", "b"], slots: [1, nil],
            when: Date(timeIntervalSinceReferenceDate: 12.5),
            link: URL(string: "https://example.com/a")!, id: UUID(), blob: Data([1, 2, 3]))
        #expect(try mismatch(shelf) == nil)
    }

    struct Strict: Codable {
        var code: String
        init(from decoder: any Decoder) throws {
            code = try decoder.singleValueContainer().decode(String.self)
            guard code.count == 3 else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "A code has three letters.")) }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(code)
        }
    }

    struct Described: Codable, JSONSchemaDescribing {
        var cents: Int
        init(from decoder: any Decoder) throws { cents = Int(try decoder.singleValueContainer().decode(String.self)) ?? 0 }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(String(cents))
        }
        static var jsonSchema: JSONSchema { .string.described("Cents, as a string.") }
    }

    struct Price: Codable {
        var money: MisdescribedMoney
        var strict: Strict?
        var described: Described
    }

    @Test("A type that cannot be described exactly is named in a warning, never a silent {}; one that describes itself is taken at its word")
    func undescribable() throws {
        let (_, components, warnings) = described(Price.self)
        #expect(
            warnings.contains { $0.contains("MisdescribedMoney") && $0.contains("encodes otherwise") && $0.contains("JSONSchemaDescribing") },
            "\(warnings)")
        #expect(warnings.contains { $0.contains("TypeDescriberTests.Strict") && $0.contains("cannot be described") }, "\(warnings)")
        #expect(
            try component("TypeDescriberTests.Described", in: components) == [
                "type": .string("string"), "description": .string("Cents, as a string."),
            ])
        #expect(!warnings.contains { $0.contains("Described") }, "\(warnings)")
        #expect(try component("TypeDescriberTests.Strict", in: components)["description"] != nil)
    }

    enum First { struct Output: Codable { var a: Int } }
    enum Second { struct Output: Codable { var b: Int } }
    struct Both: Codable {
        var first: First.Output
        var second: Second.Output
    }

    @Test("Component names are the types' names without the module, the same at every run")
    func names() {
        let (_, components, _) = described(Both.self)
        #expect(components.keys.sorted() == ["TypeDescriberTests.Both", "TypeDescriberTests.First.Output", "TypeDescriberTests.Second.Output"])
        let again = described(Both.self)
        #expect(JSONValue.object(again.components).jsonData == JSONValue.object(components).jsonData)
        let names = ComponentNames(reflectedNames: ["A.Cell", "B.Cell", "A.(Row in _1F2E).Inner", "A.(unknown context at $1a2b).Local"])
        #expect(names.name(of: "A.Cell") == "A.Cell" && names.name(of: "B.Cell") == "B.Cell", "the module kept where two modules share a name")
        #expect(names.name(of: "A.(Row in _1F2E).Inner") == "Row.Inner")
        #expect(names.name(of: "A.(unknown context at $1a2b).Local") == "Local")
    }
}
