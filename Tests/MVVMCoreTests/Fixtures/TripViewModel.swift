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

        /// The trips known by name; any other trip is 470 km in 5 hours.
        static let knownTrips = ["Paris-Rome": Output(kilometres: 1420, hours: 14)]

        /// Both ends known: the trip's length and duration; else 0 and 0.
        func inputDidChange() {
            let trip = input.from.flatMap { from in input.to.map { "\(from)-\($0)" } }
            output = trip.map { Self.knownTrips[$0] ?? Output(kilometres: 470, hours: 5) } ?? Output()
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
