/// Thrown by ``Application/run()`` when its configuration cannot start: testing mode on a
/// host that is not loopback.
public struct ConfigurationError: Error, CustomStringConvertible {
    /// What is wrong, naming the setting.
    public let description: String
}
