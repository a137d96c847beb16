import MVVMServer

/// A counter: `step` in, `count` out, `increment` and `reset` actions.
final class CounterViewModel: ViewModel {
    struct Input: ViewModelInput, Equatable { var step = 1; init() {} }
    struct Output: Codable, Sendable, Equatable { var count = 0 }  // defined from the start
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

@main
struct CounterApp {
    static let catalogue = SceneCatalogue(
        scenes: [Scene("counter", key: "counter", viewModel: CounterViewModel.self,
                       factory: SingleViewModelFactory { _ in CounterViewModel() })],
        rootKey: "counter")

    static func main() async throws {
        let logger = Logger(label: "counter")
        let app = Application(configuration: ApplicationConfiguration(), catalogue: catalogue, logger: logger)
        // Serves on http://127.0.0.1:8080 until SIGINT or SIGTERM, then shuts down gracefully.
        let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [.sigint, .sigterm], logger: logger))
        try await services.run()
    }
}
