/// An amount that decodes from a number of cents but encodes as a string (`"12.50"`): a type
/// whose JSON is not what its decoding says, for the tests of the app's contract.
public struct MisdescribedMoney: Codable, Sendable, Equatable {
    /// The amount in cents.
    public var cents: Int

    /// An amount of `cents`.
    public init(cents: Int) {
        self.cents = cents
    }

    /// Reads a number of cents.
    public init(from decoder: any Decoder) throws {
        cents = try decoder.singleValueContainer().decode(Int.self)
    }

    /// Writes `"12.50"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("\(cents / 100).\(cents % 100)")
    }
}
