import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport

/// A small scene for the bad-input battery: a text and a number in, both echoed out.
final class ProbeViewModel: InitializableViewModel {
    struct Input: ViewModelInput {
        var text = ""
        var number = 0
        init() {}
    }

    struct Output: Codable, Sendable, Equatable {
        var echo = ""
        var doubled = 0
    }

    enum Action: ViewModelAction {
        case add(amount: Int)
        static let names = ["add"]
        init(name: String, arguments: ActionArguments) throws {
            self = .add(amount: try arguments.value("amount"))
        }
    }

    var input = Input()
    private(set) var output = Output()

    func inputDidChange() {
        output = Output(echo: input.text, doubled: input.number * 2)
    }

    func perform(_ action: Action) async throws {
        switch action {
        case .add(let amount):
            input.number += amount
            inputDidChange()
        }
    }
}

enum ProbeApp {
    static let catalogue = SceneCatalogue(
        scenes: [Scene("probe", key: "probe", viewModel: ProbeViewModel.self, factory: DefaultViewModelFactory())],
        rootKey: "probe")
}
