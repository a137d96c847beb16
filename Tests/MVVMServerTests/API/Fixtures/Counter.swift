import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport

extension APIFixtures {
    /// Decides where the counter navigates: it pushes the detail of an id.
    struct CounterCoordinator: Coordinator {
        let navigator: Navigator

        func showDetail(id: Int) throws {
            try navigator.push("detail/\(id)")
        }
    }

    /// A counter: `name` and `step` in; `count` and `greeting` out.
    final class Counter: ViewModel {
        struct Input: ViewModelInput {
            var name = ""
            var step = 1

            init() {}
        }

        struct Output: Codable, Sendable, Equatable {
            var count = 0
            var greeting = ""
        }

        enum Action: ViewModelAction {
            /// Adds `step` to the count.
            case increment
            /// Adds `amount` to the count.
            case add(amount: Int)
            /// Pushes the detail scene of `id`.
            case open(id: Int)

            static let names = ["increment", "add", "open"]
        }

        var input = Input()
        private(set) var output = Output()
        private let coordinator: CounterCoordinator?

        init(coordinator: CounterCoordinator?) {
            self.coordinator = coordinator
        }

        func inputDidChange() {
            output.greeting = input.name.isEmpty ? "" : "Hello, \(input.name)"
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .increment: output.count += input.step
            case .add(let amount): output.count += amount
            case .open(let id): try coordinator?.showDetail(id: id)
            }
        }
    }

    /// The detail of one id, whose key (`detail/{id}`) spans two path segments.
    final class Detail: ViewModel {
        struct Output: Codable, Sendable, Equatable {
            var id: Int
        }

        var input = EmptyInput()
        let output: Output

        init(id: Int) {
            output = Output(id: id)
        }
    }
}
