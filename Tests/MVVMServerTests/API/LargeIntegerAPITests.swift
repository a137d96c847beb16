import Foundation
import MVVMServer
import ServerTestSupport
import TestSupport
import Testing

/// Whole numbers beyond 2^53 keep every digit through an input and an output: a JSON number is
/// not always a Double.
@Suite("Integers beyond 2^53 over HTTP")
struct LargeIntegerAPITests {
    /// Echoes its integer input in its output, and adds to it on `increment`.
    final class Ledger: InitializableViewModel {
        struct Input: ViewModelInput {
            var id: Int64 = 0
            var count: UInt64 = 0
            var label = ""
            init() {}
        }

        struct Output: Codable, Sendable, Equatable {
            var id: Int64 = 0
            var next: Int64 = 0
            var count: UInt64 = 0
        }

        enum Action: String, ViewModelAction {
            case increment
            static let names = ["increment"]
        }

        var input = Input()
        private(set) var output = Output()

        init() {}

        func inputDidChange() {
            output.id = input.id
            output.next = input.id &+ 1
            output.count = input.count
        }

        func perform(_ action: Action) async throws {
            input.id &+= 1
            inputDidChange()
        }
    }

    static let catalogue = SceneCatalogue(
        scenes: [Scene("ledger", key: "ledger", viewModel: Ledger.self, factory: DefaultViewModelFactory())], rootKey: "ledger")

    /// The digits of a member of a JSON object, as sent (JSONSerialization would round them).
    static func digits(_ member: String, in text: String) -> String? {
        guard let range = text.range(of: "\"\(member)\":") else { return nil }
        return String(text[range.upperBound...].prefix { $0 == "-" || $0.isNumber })
    }

    @Test(
        "An Int64 past 2^53, Int64's extremes, and a UInt64 within Int64's range come back digit for digit",
        arguments: [
            "9007199254740993", "9223372036854775806", "-9223372036854775808", "-9007199254740993",
        ])
    func exactThroughInputAndOutput(_ number: String) async throws {
        let server = try await TestApplication(catalogue: Self.catalogue)
        let id = try await server.createSession()
        let path = "/sessions/\(id)/scenes/ledger"
        let set = try await server.request("POST", path + "/input", body: Data(#"{"id":\#(number)}"#.utf8))
        #expect(set.status == 200)
        #expect(Self.digits("id", in: set.text) == number, "input and output: \(set.text)")
        #expect(set.text.contains(#""input":{"count":0,"id":\#(number),"label":""}"#))
        #expect(set.text.contains(#""id":\#(number),"next""#), "the output holds it too")
        // A later input of another member keeps the first one's digits (the input is merged).
        let merged = try await server.request("POST", path + "/input", body: Data(#"{"label":"x","count":9007199254740995}"#.utf8))
        #expect(merged.text.contains(#""input":{"count":9007199254740995,"id":\#(number),"label":"x"}"#))
        #expect(merged.text.contains(#""count":9007199254740995,"id":\#(number)"#))
        await server.stop()
    }

    @Test("An integer past a member's type is a 422 naming it; a fraction for an integer too")
    func outOfRange() async throws {
        let server = try await TestApplication(catalogue: Self.catalogue)
        let id = try await server.createSession()
        let path = "/sessions/\(id)/scenes/ledger/input"
        for body in [#"{"id":9223372036854775808}"#, #"{"count":-1}"#, #"{"id":1.5}"#] {
            let answer = try await server.request("POST", path, body: Data(body.utf8))
            #expect(answer.status == 422, "\(body)")
        }
        await server.stop()
    }
}
