import MVVMJSON
import Testing

@testable import MVVMCore

extension Core {
    /// The arguments of actions, found from their declarations alone.
    @Suite("Action arguments found from the declaration")
    struct ActionArgumentTests {
        enum Priority: String, Codable, CaseIterable, Sendable { case low, high }

        struct Place: Codable, Sendable, Equatable {
            var lat: Double
            var lon: Double
        }

        /// Cases with labelled values, decoded by Swift's synthesized `Decodable`.
        enum Synthesized: ViewModelAction {
            case add(title: String, count: Int, urgent: Bool?, priority: Priority, tags: [String], place: Place)
            case clear
            static let names = ["add", "clear"]
        }

        /// A custom decoding through ``ActionArguments``.
        enum Custom: ViewModelAction {
            case move(Place)
            case rename(id: Int, title: String)
            case select(ItemReference)
            static let names = ["move", "rename", "select"]

            init(name: String, arguments: ActionArguments) throws {
                switch name {
                case "move": self = .move(try arguments.decode(Place.self))
                case "select": self = .select(try arguments.decode(ItemReference.self))
                default: self = .rename(id: try arguments.value("id"), title: try arguments.value("title"))
                }
            }
        }

        enum Plain: String, CaseIterable, ViewModelAction { case start, stop }

        /// Declared once: no names, no decoding of its own.
        enum DeclaredOnce: ViewModelAction, Equatable {
            case add(title: String)
            case select(ItemReference)
            case move(Place)
            case setCount(Int)
            case clear
        }

        /// Coding keys of each layout, and key types that are not enums of plain cases.
        enum OneKey: CodingKey { case only }
        enum RawKeys: String, CodingKey {
            case first = "one"
            case second = "two"
            case third = "three"
        }
        struct StructKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        enum PayloadKey: CodingKey {
            case named(Bool)
            var stringValue: String { "named" }
            var intValue: Int? { nil }
            init?(stringValue: String) { self = .named(true) }
            init?(intValue: Int) { nil }
        }

        static func described<Action: ViewModelAction>(_ type: Action.Type, _ name: String) -> [String] {
            ArgumentProbe.arguments(of: name, in: type).map { argument in
                "\(argument.name):\(argument.type)\(argument.required ? "" : "?")" + (argument.values.map { "=" + $0.joined(separator: "|") } ?? "")
            }
        }

        @Test("Synthesized cases: each labelled value, its JSON type, optional ones not required, enumerations with their values")
        func synthesized() {
            #expect(
                Self.described(Synthesized.self, "add") == [
                    "title:string", "count:integer", "urgent:boolean?", "priority:string=low|high", "tags:array", "place:object",
                ])
            #expect(Self.described(Synthesized.self, "clear").isEmpty)
        }

        @Test("A custom decoding: a whole arguments type, an item reference (by id or by position), and members read one by one")
        func custom() {
            #expect(Self.described(Custom.self, "move") == ["lat:number", "lon:number"])
            #expect(Self.described(Custom.self, "rename") == ["id:integer", "title:string"])
            #expect(Self.described(Custom.self, "select") == ["id:string?", "section:integer?", "item:integer?"])
        }

        @Test("An enumeration of strings takes no arguments")
        func plain() {
            #expect(Self.described(Plain.self, "start").isEmpty)
        }

        @Test("An enum declared once: its names are its cases, in order, with nothing listed by hand")
        func declaredOnceNames() {
            #expect(DeclaredOnce.names == ["add", "select", "move", "setCount", "clear"])
            #expect(Synthesized.names == ["add", "clear"], "names listed by hand still count")
            #expect(Plain.names == ["start", "stop"])
        }

        @Test("A case's one unlabelled value is described by its own members; a primitive one as _0")
        func declaredOnceArguments() {
            #expect(Self.described(DeclaredOnce.self, "add") == ["title:string"])
            #expect(Self.described(DeclaredOnce.self, "select") == ["id:string?", "section:integer?", "item:integer?"])
            #expect(Self.described(DeclaredOnce.self, "move") == ["lat:number", "lon:number"])
            #expect(Self.described(DeclaredOnce.self, "setCount") == ["_0:integer"])
            #expect(Self.described(DeclaredOnce.self, "clear").isEmpty)
        }

        @Test("A case's one unlabelled value is decoded from the whole arguments object; errors name its members")
        func declaredOnceDecoding() throws {
            #expect(try DeclaredOnce(name: "select", arguments: ActionArguments(["id": .string("7")])) == .select(.id("7")))
            #expect(
                try DeclaredOnce(name: "select", arguments: ActionArguments(["section": .integer(0), "item": .integer(2)]))
                    == .select(.position(section: 0, item: 2)))
            #expect(
                try DeclaredOnce(name: "move", arguments: ActionArguments(["lat": .number(1.5), "lon": .integer(2)]))
                    == .move(Place(lat: 1.5, lon: 2)))
            #expect(try DeclaredOnce(name: "add", arguments: ActionArguments(["title": .string("Milk")])) == .add(title: "Milk"))
            #expect(try DeclaredOnce(name: "setCount", arguments: ActionArguments(["_0": .integer(3)])) == .setCount(3))
            #expect(try DeclaredOnce(name: "clear", arguments: ActionArguments()) == .clear)
            #expect(throws: InputError(member: "lon", reason: "is required")) {
                try DeclaredOnce(name: "move", arguments: ActionArguments(["lat": .integer(1)]))
            }
            #expect(throws: InputError(member: "id", reason: "is required")) {
                try DeclaredOnce(name: "select", arguments: ActionArguments())
            }
            #expect(throws: InputError(member: "title", reason: "has the wrong type (expected String)")) {
                try DeclaredOnce(name: "add", arguments: ActionArguments(["title": .integer(4)]))
            }
        }

        @Test("The cases of an enum of coding keys of each layout; other key types give none")
        func codingKeyCases() {
            #expect(CodingKeyCases.all(of: OneKey.self)?.map(\.stringValue) == ["only"])
            #expect(CodingKeyCases.all(of: RawKeys.self)?.map(\.stringValue) == ["one", "two", "three"])
            #expect(CodingKeyCases.all(of: StructKey.self) == nil)
            #expect(CodingKeyCases.all(of: PayloadKey.self) == nil)
        }
    }
}
