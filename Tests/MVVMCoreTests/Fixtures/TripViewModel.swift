import MVVMCore
import MVVMJSON
import MVVMSupport

extension Core {
    /// A trip: where from and where to in; its length and duration out, defined (0 and 0)
    /// before any input. Its load does nothing, so it is loaded at once.
    final class TripViewModel: InitializableViewModel {
        struct Input: ViewModelInput {
            var from: String?
            var to: String?
        }

        struct Output: Codable, Sendable, Equatable {
            var kilometres: Double = 0
            var hours: Double = 0
        }

        var input = Input()
        private(set) var output = Output()

        init() {}

        /// Both ends known: Paris to Rome is 1,420 km in 14 hours, any other trip 470 km in 5.
        func inputDidChange() {
            guard let from = input.from, let to = input.to else {
                output = Output()
                return
            }
            if from == "Paris" && to == "Rome" {
                output = Output(kilometres: 1420, hours: 14)
            } else {
                output = Output(kilometres: 470, hours: 5)
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
