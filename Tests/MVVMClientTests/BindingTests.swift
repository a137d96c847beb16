import Foundation
import MVVMClient
import MVVMServer
import MVVMServerTesting
import Testing

@Suite("A binding republishes the view model that follows a value, with no refresh by hand")
struct BindingTests {
    /// The session's items, shared by the list and the detail: a view model of its own.
    final class Items: ViewModel {
        struct Output: Codable, Sendable, Equatable {}
        var input = EmptyInput()
        let output = Output()
        let titles = ObservableValue(["milk", "eggs"])
    }

    /// Shows the titles, bound to the shared items.
    final class List: ViewModel {
        struct Output: Codable, Sendable, Equatable { var titles: [String] = [] }
        var input = EmptyInput()
        private(set) var output = Output()

        init(scope: ViewModelScope) throws {
            let items = try scope.viewModel(Items.self, key: "items")
            scope.bind(items.titles) { [unowned self] titles in output.titles = titles }
        }
    }

    /// Renames the first item, in the shared items (not in the list).
    final class Detail: ViewModel {
        struct Output: Codable, Sendable, Equatable {}
        enum Action: ViewModelAction {
            case rename(title: String)
            static let names = ["rename"]
        }
        var input = EmptyInput()
        let output = Output()
        private let items: Items

        init(scope: ViewModelScope) throws {
            items = try scope.viewModel(Items.self, key: "items")
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .rename(let title): items.titles.value[0] = title
            }
        }
    }

    static let catalogue = SceneCatalogue(
        scenes: [
            Scene("items", key: "items", viewModel: Items.self, factory: SingleViewModelFactory { _ in Items() }),
            Scene("list", key: "list", viewModel: List.self, factory: SingleViewModelFactory { extras in try List(scope: extras.scope) }),
            Scene("detail", key: "detail", viewModel: Detail.self, factory: SingleViewModelFactory { extras in try Detail(scope: extras.scope) }),
        ],
        rootKey: "list")

    @Test("A change the detail makes to the shared items publishes a new version of the list, waking its long-poll", arguments: TestMode.allCases)
    func republishes(mode: TestMode) async throws {
        try await TestServer(catalogue: Self.catalogue).test(mode) { client in
            let session = try await client.createSession()
            let list = session.scene("list", input: NoInput.self, output: List.Output.self)
            let before = try await list.state { $0.isLoaded }
            #expect(before.output.titles == ["milk", "eggs"])
            async let woken = list.next(after: before.version, wait: .seconds(10))
            // Parked before the change (the long-poll is woken by it, not answered from a later read).
            try await client.waitUntilParked()
            _ = try await session.scene("detail", input: NoInput.self, output: Detail.Output.self).perform("rename", arguments: ["title": "oat milk"])
            let next = try await woken
            #expect(next.version > before.version)
            #expect(next.output.titles == ["oat milk", "eggs"])
        }
    }
}
