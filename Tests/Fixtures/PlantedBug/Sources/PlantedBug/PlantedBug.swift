import MVVMServer

/// A cannon with a planted bug: once it is armed (input) and loaded (action), firing it throws
/// an error that is not a refusal, so the server answers 500. Any other order of the three
/// steps works. scripts/explore-planted checks that exploring the app finds the sequence, and
/// that the journal it exports replays to the same 500.
final class CannonViewModel: ViewModel {
    struct Input: ViewModelInput { var armed = false }
    struct Output: Codable, Sendable {
        var loaded = false
        var shots = 0
    }
    enum Action: String, CaseIterable, ViewModelAction { case load, fire }
    struct Jammed: Error {}

    var input = Input()
    private(set) var output = Output()

    func perform(_ action: Action) async throws {
        switch action {
        case .load:
            output.loaded = true
        case .fire:
            if input.armed && output.loaded { throw Jammed() }
            output.shots += 1
        }
    }
}

@main
struct PlantedBugApp {
    static let catalogue = SceneCatalogue(
        scenes: [Scene("cannon", key: "cannon", viewModel: CannonViewModel.self, factory: SingleViewModelFactory { _ in CannonViewModel() })],
        rootKey: "cannon")

    static func main() async {
        await Application.main(name: "planted-bug", catalogue: catalogue)
    }
}
