import Foundation
import MVVMCore
import MVVMJSON
import Testing

extension Core {
    /// An input body merged from its bytes (``InputPatch/object(_:)``, what the server takes for
    /// a plain JSON object) gives what the same members parsed give: the same input, the same
    /// members sent to `validate`, or the same ``InputError``.
    @Suite("Inputs merged from a body's bytes")
    struct InputBytesMergeTests {
        /// A form with members of every kind an input holds.
        final class FormViewModel: InitializableViewModel {
            enum Kind: String, Codable, Sendable {
                case small, large
            }

            struct Point: Codable, Sendable, Equatable {
                var x: Int
                var y: Int
            }

            struct Input: ViewModelInput {
                var name: String?
                var count = 0
                var flag = false
                var kind = Kind.small
                var tags: [String] = []
                var point: Point?
                var ratio = 0.5
            }

            struct Output: Codable, Sendable, Equatable {
                var summary = ""
            }

            var input = Input()
            private(set) var output = Output()
            /// The members each validation was told were sent.
            private(set) var sentMembers: [Set<String>] = []

            init() {}

            func validate(_ input: Input, sent: Set<String>) throws {
                sentMembers.append(sent)
                if input.count < 0 { throw Refusal.input("count", "must not be negative") }
            }

            func inputDidChange() {
                output = Output(summary: "\(input.name ?? "-") \(input.count) \(input.kind.rawValue)")
            }
        }

        /// What one merge did: the input after it and the members validated, or the error.
        private struct Outcome: Equatable {
            var input: FormViewModel.Input
            var sent: [Set<String>]
            var error: String?
            var version: UInt64?
        }

        private static let bodies = [
            #"{"name":"Ann"}"#, #"{"name":null}"#, #"{"count":3,"flag":true}"#, #"{"kind":"large"}"#, #"{"kind":"huge"}"#,
            #"{"count":1.5}"#, #"{"count":"three"}"#, #"{"count":-1}"#, #"{"tags":["a","b"]}"#, #"{"point":{"x":1,"y":2}}"#,
            #"{"point":{"x":1}}"#, #"{"colour":"red"}"#, #"{"count":1,"colour":"red"}"#, #"{"name":"A","name":"B"}"#,
            #"{"name":"caf\u00e9\n\"q\""}"#, #"{"name":"café"}"#, " { \"count\" : 2 ,\"ratio\" :1e2 } ", "{}", #"{"flag":1}"#,
            #"{"count":9223372036854775807}"#, #"{"count":9223372036854775808}"#, #"{"n\u0061me":"escaped key"}"#,
            #"{"name":"All","count":7,"flag":true,"kind":"large","tags":[],"point":null,"ratio":2}"#,
            #"{"name":"All","count":7,"flag":true,"kind":"large","tags":[],"point":null,"ratio":2,"count":8}"#,
            #"{"point":{"x":1,"y":2,"z":3},"tags":["x"]}"#, #"{"name":""}"#, #"{"ratio":null}"#,
        ]

        /// Applies `bodies` in turn to a new form, each as `patch` makes it.
        private func outcomes(_ bodies: [String], patch: (Data) throws -> InputPatch) throws -> [Outcome] {
            let store = ViewModelStore()
            let form = try store.get(FormViewModel.self, key: "form", factory: DefaultViewModelFactory())
            return bodies.map { body in
                do {
                    try store.setInput(try patch(Data(body.utf8)), key: "form")
                    return Outcome(input: form.input, sent: form.sentMembers, version: store.entry("form")?.version)
                } catch {
                    return Outcome(input: form.input, sent: form.sentMembers, error: "\(error)", version: store.entry("form")?.version)
                }
            }
        }

        /// A body that is no JSON object.
        private struct NotAnObject: Error {}

        private static func parsed(_ body: Data) throws -> [String: JSONValue] {
            guard let members = StrictJSON.parse(body)?.objectValue else { throw NotAnObject() }
            return members
        }

        @Test("Each body alone, after a partial input, gives what its parsed members give", arguments: bodies)
        func eachBody(_ body: String) throws {
            let sequence = [#"{"name":"Base","count":2}"#, body]
            let fromBytes = try outcomes(sequence) { data in try InputPatch.of(data, parse: Self.parsed) }
            let parsed = try outcomes(sequence) { data in .members(try Self.parsed(data)) }
            #expect(fromBytes == parsed)
        }

        @Test("All the bodies in a row give what their parsed members give")
        func allInARow() throws {
            let fromBytes = try outcomes(Self.bodies) { data in try InputPatch.of(data, parse: Self.parsed) }
            let parsed = try outcomes(Self.bodies) { data in .members(try Self.parsed(data)) }
            #expect(fromBytes == parsed)
        }

        @Test("A plain object is merged from its bytes; a key with an escape or beyond ASCII is parsed")
        func whichBodiesStayBytes() throws {
            for body in [#"{"name":"Ann"}"#, #" {"count": 1, "name": "caf\u00e9"} "#, "{}", #"{"name":"A","name":"B"}"#] {
                guard case .object = try InputPatch.of(Data(body.utf8), parse: Self.parsed) else {
                    Issue.record("\(body) was parsed")
                    continue
                }
            }
            for body in [#"{"n\u0061me":"x"}"#, #"{"café":1}"#, "[1]", #""text""#, "{", ""] {
                if case .object = try? InputPatch.of(Data(body.utf8), parse: Self.parsed) {
                    Issue.record("\(body) stayed bytes")
                }
            }
        }
    }
}
