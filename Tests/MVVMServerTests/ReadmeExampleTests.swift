import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import TestSupport
import Testing

/// The README's "Writing a scene" example, verbatim, served over real HTTP.
private final class CounterViewModel: ViewModel {
    struct Input: ViewModelInput { var step = 1; init() {} }
    struct Output: Codable, Sendable { var count = 0 }           // defined from the start
    enum Action: String, CaseIterable, ViewModelAction { case increment, reset }

    var input = Input()
    private(set) var output = Output()

    func perform(_ action: Action) async throws {
        switch action {
        case .increment: output.count += input.step
        case .reset: output.count = 0
        }
    }
}

@Suite("The README's example scene")
struct ReadmeExampleTests {
    @Test("The counter counts by its step and resets, over HTTP")
    func counter() async throws {
        let catalogue = SceneCatalogue(
            scenes: [Scene("counter", key: "counter", viewModel: CounterViewModel.self,
                           factory: SingleViewModelFactory { _ in CounterViewModel() })],
            rootKey: "counter")
        let server = try await TestApplication(catalogue: catalogue)
        let session = try await server.createSession()
        let scene = "/sessions/\(session)/scenes/counter"
        #expect(try await server.json("POST", scene + "/input", ["step": 5]).status == 200)
        _ = try await server.request("POST", scene + "/actions/increment")
        let counted = try await server.request("POST", scene + "/actions/increment")
        #expect((counted.json["output"] as? [String: Any])?["count"] as? Int == 10)
        let reset = try await server.request("POST", scene + "/actions/reset")
        #expect((reset.json["output"] as? [String: Any])?["count"] as? Int == 0)
        #expect(try await server.request("POST", scene + "/actions/explode").status == 404)
        await server.stop()
    }
}
