import Foundation
import MVVMServer

/// The example app that ships with the server: the seeds' examples as scenes.
public enum StarWarsApp {
    /// Every scene; `films` is the root of a new session.
    public static func catalogue() -> SceneCatalogue {
        SceneCatalogue(
            scenes: [
                FilmsFactory.scene,
                FilmFactory.scene,
                PersonFactory.scene,
                AlertFactory.scene,
                SearchFactory.scene,
                Scene("find", key: FindViewModelFactory.findKey, viewModel: FindViewModel.self, factory: FindViewModelFactory()),
                Scene("findPeople", key: "find/people", viewModel: FindResultsViewModel.self, factory: FindViewModelFactory()),
                Scene("findPlanets", key: "find/planets", viewModel: FindResultsViewModel.self, factory: FindViewModelFactory()),
                DashboardFactory.scene,
                Scene("car", key: "car", viewModel: CarViewModel.self, factory: DefaultViewModelFactory()),
            ],
            rootKey: "films")
    }

    /// The services: the clock, and the SWAPI client over the embedded data set (with an
    /// artificial latency, and its first `failingFirst` requests answering 503) or over HTTP at
    /// `swapiURL`, whose latency, retries and timeouts run on that clock.
    public static func dependencies(
        swapiURL: String? = nil, latency: Duration = .zero, failingFirst: Int = 0, policy: ApiSession.Policy = .init(),
        clock: any Clock<Duration> = ContinuousClock()
    ) throws -> DependencyValues {
        var dependencies = DependencyValues()
        dependencies.clock = clock
        if let swapiURL {
            guard let url = URL(string: swapiURL), url.scheme == "http" || url.scheme == "https" else {
                throw SwapiConfigurationError(description: "'\(swapiURL)' is not an http(s) URL")
            }
            dependencies.swapi = SwapiClient(session: ApiSession(transport: URLSessionTransport(baseURL: url), policy: policy, clock: clock))
        } else {
            dependencies.swapi = SwapiClient.embedded(latency: latency, failingFirst: failingFirst, policy: policy, clock: clock)
        }
        return dependencies
    }
}

/// A SWAPI setting that cannot be used.
public struct SwapiConfigurationError: Error, CustomStringConvertible {
    /// What is wrong.
    public let description: String
}
