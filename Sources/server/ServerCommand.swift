import ArgumentParser
import MVVMServer
import Scenes
#if PostgreSQL
import MVVMPostgres
#endif

/// `server`: serves the example MVVM app over HTTP until SIGINT or SIGTERM, through the entry
/// point every app uses (`Application.serve`), with the settings of ``ServerOptions`` and the
/// example's own flags for its Star Wars data.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Serve the MVVM example app over HTTP (sessions, scenes, long-poll).")

    @OptionGroup(title: "Server")
    var server: ServerOptions

    @Option(help: "A SWAPI-compatible base URL (e.g. https://swapi.dev/api/); the embedded data set when absent.")
    var swapiUrl: String?

    @Option(help: "Milliseconds of artificial latency of the embedded data set, to watch scenes load.")
    var swapiLatencyMs = 0

    @Option(help: "Retries of a failed SWAPI request (transient failures only).")
    var swapiRetries = 2

    @Option(help: "Seconds one SWAPI request may take.")
    var swapiTimeout: Double = 5

    func validate() throws {
        guard swapiTimeout.isFinite, swapiTimeout > 0 else {
            throw ValidationError("--swapi-timeout must be a positive number of seconds")
        }
    }

    func run() async throws {
        AllocatorTuning.apply()
        var policy = ApiSession.Policy()
        policy.retries = max(0, swapiRetries)
        policy.timeout = .milliseconds(Int64(max(0.001, swapiTimeout) * 1000))
        policy.deadline = policy.timeout * (policy.retries + 1) + .seconds(1)
        let dependencies: DependencyValues
        do {
            dependencies = try StarWarsApp.dependencies(swapiURL: swapiUrl, latency: .milliseconds(max(0, swapiLatencyMs)), policy: policy)
        } catch {
            throw ValidationError("\(error)")
        }
        try await Application.serve(name: "mvvmserver", options: server, catalogue: StarWarsApp.catalogue(), dependencies: dependencies, storageSchemes: Self.storageSchemes)
    }

    /// The storages `--state` may name by URL: PostgreSQL when built with the trait.
    private static var storageSchemes: [SessionStorageScheme] {
        #if PostgreSQL
        [.postgres]
        #else
        []
        #endif
    }
}
