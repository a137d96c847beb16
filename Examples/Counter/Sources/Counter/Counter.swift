import MVVMServer

/// A counter: `step` in, `count` out, `increment` and `reset` actions. The count is kept in the
/// session's saved state, so it survives a restart of the app (and a `kill -9`).
final class CounterViewModel: ViewModel {
    struct Input: ViewModelInput, Equatable {
        var step = 1
        init() {}
    }
    struct Output: Codable, Sendable, Equatable { var count = 0 }  // defined from the start
    enum Action: String, CaseIterable, ViewModelAction { case increment, reset }

    var input = Input()
    private(set) var output = Output()
    private let savedState: SavedStateHandle

    init(savedState: SavedStateHandle) {
        self.savedState = savedState
        output.count = savedState["count"] ?? 0
    }

    func perform(_ action: Action) async throws {
        switch action {
        case .increment: output.count += input.step
        case .reset: output.count = 0
        }
        savedState["count"] = output.count
    }
}

@main
struct CounterApp {
    static let catalogue = SceneCatalogue(
        scenes: [
            Scene(
                "counter", key: "counter", viewModel: CounterViewModel.self,
                factory: SingleViewModelFactory { extras in CounterViewModel(savedState: extras.scope.savedState) })
        ],
        rootKey: "counter")

    /// Serves the counter with the settings every app takes (`--help` lists them): on
    /// http://127.0.0.1:8080, its sessions saved in ~/.local/state/counter/state.sqlite, until
    /// SIGINT or SIGTERM.
    static func main() async {
        await Application.main(name: "counter", catalogue: catalogue)
    }
}
