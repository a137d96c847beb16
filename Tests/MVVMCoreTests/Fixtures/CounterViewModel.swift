import MVVMCore
import MVVMJSON
import MVVMSupport

extension Core {
    /// A view model for change tracking: `count` and `label` go to the output, `note` does not,
    /// so a change of `note` changes the state document's input but not its output.
    final class CounterViewModel: InitializableViewModel {
        struct Input: ViewModelInput {
            var count = 0
            var label = ""
            var note = ""
        }

        struct Output: Codable, Sendable, Equatable {
            var count = 0
            var label = ""
        }

        var input = Input()
        private(set) var output = Output()

        init() {}

        func inputDidChange() {
            output = Output(count: input.count, label: input.label)
        }
    }
}
