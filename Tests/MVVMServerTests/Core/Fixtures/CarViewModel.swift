import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport

extension Core {
    /// ViewModelable's `CarViewModel` (seed 003): a make and a model in; horse power and weight
    /// out, defined (0 and 0) before any input. Its load does nothing, so it is loaded at once.
    final class CarViewModel: InitializableViewModel {
        struct Input: ViewModelInput {
            var make: String?
            var model: String?
        }

        struct Output: Codable, Sendable, Equatable {
            var horsePower: Double = 0
            var weight: Double = 0
        }

        var input = Input()
        private(set) var output = Output()

        init() {}

        /// ViewModelable's `updateOutput()`.
        func inputDidChange() {
            guard let make = input.make, let model = input.model else {
                output = Output()
                return
            }
            if make == "Lamborghini" && model == "Huracan" {
                output = Output(horsePower: 782, weight: 2100)
            } else {
                output = Output(horsePower: 120, weight: 1100)
            }
        }
    }

    /// A second initializable view model, to ask a key for the wrong type and to see which
    /// factory of a composite wins.
    final class BikeViewModel: InitializableViewModel {
        struct Output: Codable, Sendable, Equatable {
            var wheels = 2
            var madeBy: String
        }

        var input = EmptyInput()
        private(set) var output: Output

        init() {
            output = Output(madeBy: "init()")
        }

        init(madeBy: String) {
            output = Output(madeBy: madeBy)
        }
    }
}
