import MVVMServer

/// The car of ViewModelable's example: a make and a model in, horse power and weight out,
/// always defined (0 and 0 before any input).
public final class CarViewModel: InitializableViewModel {
    /// The make and model of the car.
    public struct Input: ViewModelInput {
        /// The maker, e.g. "Lamborghini".
        public var make: String?
        /// The model, e.g. "Huracan".
        public var model: String?

        /// No car chosen yet.
        public init() {}
    }

    /// What the screen shows.
    public struct Output: Codable, Sendable, Equatable {
        /// Horse power; 0 until a car is chosen.
        public var horsePower: Double = 0
        /// Weight in kilograms; 0 until a car is chosen.
        public var weight: Double = 0
    }

    /// The current input.
    public var input = Input()
    /// The current output.
    public private(set) var output = Output()

    /// A car with no make or model.
    public init() {}

    /// ViewModelable's `updateOutput()`.
    public func inputDidChange() {
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
