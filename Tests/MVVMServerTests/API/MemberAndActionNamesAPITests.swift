import Foundation
import MVVMServer
import ServerTestSupport
import TestSupport
import Testing

/// What a scene's input members and actions are called over HTTP: an input's JSON members come
/// from its coding keys, and a `CaseIterable` action enum needs no list of names.
@Suite("Input members and action names")
struct MemberAndActionNamesAPITests {
    final class Renamed: InitializableViewModel {
        struct Input: ViewModelInput {
            var query = ""
            var pageSize = 20
            /// `nil` by default, so absent from the default input's encoding.
            var cursor: String?

            enum CodingKeys: String, CodingKey {
                case query = "q"
                case pageSize = "page_size"
                case cursor
            }

            init() {}
        }

        struct Output: Codable, Sendable, Equatable {
            var echo = ""
            var pageSize = 0
            var cursor: String?
        }

        /// Raw values that differ from the case names: the names are the raw values.
        enum Action: String, CaseIterable, ViewModelAction {
            case reset = "resetAll"
            case refresh
        }

        var input = Input()
        private(set) var output = Output()

        init() {}

        func inputDidChange() {
            output = Output(echo: input.query, pageSize: input.pageSize, cursor: input.cursor)
        }

        func perform(_ action: Action) async throws {
            if action == .reset { input = Input() }
            inputDidChange()
        }
    }

    /// A view model whose actions carry arguments, listed through `allCases`.
    final class Picker: InitializableViewModel {
        struct Output: Codable, Sendable, Equatable {
            var picked = 0
        }

        enum Action: CaseIterable, ViewModelAction {
            case pick(index: Int)
            case clear

            static let allCases: [Action] = [.pick(index: 0), .clear]
        }

        var input = EmptyInput()
        private(set) var output = Output()

        init() {}

        func perform(_ action: Action) async throws {
            switch action {
            case .pick(let index): output.picked = index
            case .clear: output.picked = 0
            }
        }
    }

    /// The state's input, as an NSDictionary (JSONSerialization's numbers are NSNumbers).
    static func input(_ response: TestResponse) -> NSDictionary? {
        (response.json["input"] as? [String: Any]).map { NSDictionary(dictionary: $0) }
    }

    static let catalogue = SceneCatalogue(
        scenes: [
            Scene("renamed", key: "renamed", viewModel: Renamed.self, factory: DefaultViewModelFactory()),
            Scene("picker", key: "picker", viewModel: Picker.self, factory: DefaultViewModelFactory()),
        ], rootKey: "renamed")

    @Test("The catalogue lists the coding keys' names and the actions' names")
    func catalogueNames() async throws {
        let server = try await TestApplication(catalogue: Self.catalogue)
        let scenes = try #require(try await server.request("GET", "/scenes").json["scenes"] as? [[String: Any]])
        #expect(scenes[0]["input"] as? [String] == ["q", "page_size", "cursor"])
        #expect(scenes[0]["actions"] as? [String] == ["resetAll", "refresh"])
        #expect(scenes[1]["actions"] as? [String] == ["pick", "clear"])
        await server.stop()
    }

    @Test("An input is set by its coding keys' names, a member whose default is nil included; the Swift names are unknown members")
    func inputByCodingKeys() async throws {
        let server = try await TestApplication(catalogue: Self.catalogue)
        let id = try await server.createSession()
        let path = "/sessions/\(id)/scenes/renamed"
        let set = try await server.json("POST", path + "/input", ["q": "hoth", "cursor": "c2"])
        #expect(set.status == 200)
        #expect(Self.input(set) == ["q": "hoth", "page_size": 20, "cursor": "c2"])
        #expect((set.json["output"] as? [String: Any])?["echo"] as? String == "hoth")
        let paged = try await server.json("POST", path + "/input", ["page_size": 5])
        #expect(Self.input(paged) == ["q": "hoth", "page_size": 5, "cursor": "c2"], "the other members are kept")

        let swiftName = try await server.json("POST", path + "/input", ["query": "endor"])
        #expect(swiftName.status == 422)
        #expect(swiftName.json["member"] as? String == "query")

        let reset = try await server.request("POST", path + "/actions/resetAll")
        #expect(reset.status == 200)
        #expect(Self.input(reset) == ["q": "", "page_size": 20])
        #expect(try await server.request("POST", path + "/actions/reset").status == 404, "the case name is not the action's name")

        let picked = try await server.json("POST", "/sessions/\(id)/scenes/picker/actions/pick", ["index": 3])
        #expect((picked.json["output"] as? [String: Any])?["picked"] as? Int == 3)
        await server.stop()
    }
}
