import MVVMServer

/// The SWAPI service in the app's ``DependencyValues``; the embedded data set unless set.
public enum SwapiServiceKey: DependencyKey {
    /// The embedded data set, without latency.
    public static let defaultValue: any SwapiService = SwapiClient.embedded()
}

extension DependencyValues {
    /// The service the Star Wars scenes read from.
    public var swapi: any SwapiService {
        get { self[SwapiServiceKey.self] }
        set { self[SwapiServiceKey.self] = newValue }
    }
}
