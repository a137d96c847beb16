@testable import MVVMCore
import Testing

extension Core {
    /// The arguments of actions, found from their declarations alone.
    @Suite("Action arguments found from the declaration")
    struct ActionArgumentTests {
        enum Priority: String, Codable, CaseIterable, Sendable { case low, high }

        struct Place: Codable, Sendable {
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

        static func described<Action: ViewModelAction>(_ type: Action.Type, _ name: String) -> [String] {
            ArgumentProbe.arguments(of: name, in: type).map { argument in
                "\(argument.name):\(argument.type)\(argument.required ? "" : "?")" + (argument.values.map { "=" + $0.joined(separator: "|") } ?? "")
            }
        }

        @Test("Synthesized cases: each labelled value, its JSON type, optional ones not required, enumerations with their values")
        func synthesized() {
            #expect(Self.described(Synthesized.self, "add") == ["title:string", "count:integer", "urgent:boolean?", "priority:string=low|high", "tags:array", "place:object"])
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
    }
}
