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

    @Option(help: "Seconds one SWAPI request may take (default 5, plus the artificial latency).")
    var swapiTimeout: Double?

    @Option(help: "Milliseconds of pause before the first retry of a SWAPI request; doubled for each further one.")
    var swapiBackoffMs = 50

    @Option(help: "How many of the embedded data set's first requests answer 503, to watch the retries.")
    var swapiFailFirst = 0

    func validate() throws {
        guard (0...86_400_000).contains(swapiLatencyMs) else {
            throw ValidationError("--swapi-latency-ms must be from 0 to 86400000 (a day)")
        }
        if let swapiTimeout, !(swapiTimeout.isFinite && swapiTimeout > 0 && swapiTimeout <= 86_400) {
            throw ValidationError("--swapi-timeout must be a positive number of seconds, up to 86400")
        }
        guard (0...20).contains(swapiRetries) else {
            throw ValidationError("--swapi-retries must be from 0 to 20")
        }
        guard (0...3_600_000).contains(swapiBackoffMs) else {
            throw ValidationError("--swapi-backoff-ms must be from 0 to 3600000 (an hour)")
        }
    }

    func run() async throws {
        AllocatorTuning.apply()
        var policy = ApiSession.Policy()
        policy.retries = swapiRetries
        policy.timeout = swapiTimeout.map { .milliseconds(Int64(max(0.001, $0) * 1000)) } ?? .seconds(5) + .milliseconds(swapiLatencyMs)
        policy.backoff = .milliseconds(max(0, swapiBackoffMs))
        // Every attempt, and every pause between two (the pause doubles each time), fit.
        let pauses = policy.backoff * ((1 << policy.retries) - 1)
        policy.deadline = policy.timeout * (policy.retries + 1) + pauses + .seconds(1)
        let (swapiUrl, latency, failFirst) = (swapiUrl, Duration.milliseconds(swapiLatencyMs), swapiFailFirst)
        try await Application.serve(
            name: "mvvmserver", options: server, catalogue: StarWarsApp.catalogue(), storageSchemes: Self.storageSchemes
        ) { [policy] base in
            try StarWarsApp.dependencies(swapiURL: swapiUrl, latency: latency, failingFirst: failFirst, policy: policy, clock: base.clock)
        }
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
