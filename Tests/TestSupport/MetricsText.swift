/// What `GET /metrics` says, read as a test reads it.
public enum MetricsText {
    /// The value of the unlabelled metric `name` in a Prometheus text exposition, as a whole
    /// number (counters are written as integers, gauges as floating-point numbers: `2.0`);
    /// `nil` when the text has no such line.
    public static func value(of name: String, in text: some StringProtocol) -> Int? {
        let prefix = name + " "
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return Double(line.dropFirst(prefix.count)).map { Int($0) }
    }
}
