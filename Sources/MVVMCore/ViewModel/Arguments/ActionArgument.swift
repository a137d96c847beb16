/// One argument of an action, as `GET /scenes` lists it: found by decoding the action once with
/// a probe (``ArgumentProbe``), so the action's declaration is its only description.
package struct ActionArgument: Sendable, Equatable, Encodable {
    /// The argument's name in the arguments object (`title`).
    package let name: String
    /// Its JSON type: `string`, `integer`, `number`, `boolean`, `array` or `object`.
    package let type: String
    /// Whether a call must send it.
    package let required: Bool
    /// The values it takes, for an enumeration of strings.
    package let values: [String]?
}
