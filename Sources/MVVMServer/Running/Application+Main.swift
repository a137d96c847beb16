import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle

extension Application {
    /// Runs an app as the bundled `server` runs: parses the command line and the environment
    /// into its settings (``ServerOptions``, with `--help`; with `--contract` it writes the
    /// app's contract, ``contract(of:)``, and returns), saves sessions in the app's own
    /// SQLite file unless told otherwise (in testing mode, in a file of the server's own,
    /// removed at exit), prints `<name> listening on <URL>` once it listens (and on Linux lets
    /// go of the resident pages of the executable's code that ran only at start),
    /// and serves until SIGINT or SIGTERM, which shut it down gracefully (parked requests
    /// answered, sessions saved); then it returns, and the process exits 0.
    ///
    /// Bad settings print what is wrong, with the usage, and exit with status 64; a server that
    /// cannot start (the port taken, the state file in use) prints why and exits with status 1.
    ///
    /// - Parameters:
    ///   - name: the app's name: it names the log, the listening line and the folder of its
    ///     state file (`$XDG_STATE_HOME/<name>/state.sqlite`), so two apps never share a file.
    ///   - catalogue: the app's scenes.
    ///   - dependencies: the services every factory is given.
    ///   - configuration: settings set in code; each flag or environment variable given wins.
    ///     Its `storage`, when set, replaces the default file.
    ///   - logLevel: the log level when `--log-level` is not given.
    ///   - storageSchemes: storages `--state` may name by URL besides SQLite files, such as
    ///     `SessionStorageScheme.postgres` from `MVVMPostgres`.
    ///   - arguments: the command line, without the program's name.
    public static func main(
        name: String,
        catalogue: SceneCatalogue,
        dependencies: DependencyValues = DependencyValues(),
        configuration: ApplicationConfiguration = ApplicationConfiguration(),
        logLevel: Logger.Level = .info,
        storageSchemes: [SessionStorageScheme] = [],
        arguments: [String] = Array(CommandLine.arguments.dropFirst())
    ) async {
        await main(
            name: name, catalogue: catalogue, configuration: configuration, logLevel: logLevel, storageSchemes: storageSchemes, arguments: arguments
        ) { _ in
            dependencies
        }
    }

    /// Runs an app as
    /// ``main(name:catalogue:dependencies:configuration:logLevel:storageSchemes:arguments:)``
    /// does, with services made once the settings are known: `makeDependencies` is given the
    /// values every app starts from, whose ``DependencyValues/clock`` is the test clock in
    /// testing mode, and returns the app's. A service that waits reads that clock. An error it
    /// throws is a setting that cannot be used (status 64).
    public static func main(
        name: String,
        catalogue: SceneCatalogue,
        configuration: ApplicationConfiguration = ApplicationConfiguration(),
        logLevel: Logger.Level = .info,
        storageSchemes: [SessionStorageScheme] = [],
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        makeDependencies: @escaping @Sendable (DependencyValues) throws -> DependencyValues
    ) async {
        let options = AppCommandLine.parseOrExit(arguments, name: name)
        do {
            try await serve(
                name: name, options: options, catalogue: catalogue, configuration: configuration, logLevel: logLevel, storageSchemes: storageSchemes,
                makeDependencies: makeDependencies)
        } catch let error as ValidationError {
            AppCommandLine.exit(withError: error)
        } catch {
            FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
            AppCommandLine.exit(withError: ExitCode.failure)
        }
    }

    /// Serves an app with `options` already parsed (an app whose command has flags of its
    /// own takes ``ServerOptions`` as an `@OptionGroup`), as
    /// ``main(name:catalogue:dependencies:configuration:logLevel:storageSchemes:arguments:)``
    /// does, until SIGINT or SIGTERM; returns after the graceful shutdown.
    /// - Throws: `ValidationError` for a setting that cannot be used; the error that kept the
    ///   server from starting (``HTTPServerError``, or one naming the state store).
    public static func serve(
        name: String,
        options: ServerOptions,
        catalogue: SceneCatalogue,
        dependencies: DependencyValues = DependencyValues(),
        configuration: ApplicationConfiguration = ApplicationConfiguration(),
        logLevel: Logger.Level = .info,
        storageSchemes: [SessionStorageScheme] = []
    ) async throws {
        try await serve(
            name: name, options: options, catalogue: catalogue, configuration: configuration, logLevel: logLevel, storageSchemes: storageSchemes
        ) { _ in dependencies }
    }

    /// Serves an app with `options` already parsed, as
    /// ``serve(name:options:catalogue:dependencies:configuration:logLevel:storageSchemes:)``
    /// does, with services made once the settings are known, as
    /// ``main(name:catalogue:configuration:logLevel:storageSchemes:arguments:makeDependencies:)``
    /// makes them.
    /// - Throws: as the other `serve`; `ValidationError` with the description of an error
    ///   `makeDependencies` throws.
    public static func serve(
        name: String,
        options: ServerOptions,
        catalogue: SceneCatalogue,
        configuration: ApplicationConfiguration = ApplicationConfiguration(),
        logLevel: Logger.Level = .info,
        storageSchemes: [SessionStorageScheme] = [],
        makeDependencies: @escaping @Sendable (DependencyValues) throws -> DependencyValues
    ) async throws {
        if options.contract {
            FileHandle.standardOutput.write(contract(of: catalogue))
            return
        }
        let settings = try options.resolved(
            appName: name, code: configuration, logLevel: logLevel, storageSchemes: storageSchemes, environment: ProcessInfo.processInfo.environment)
        defer { if let folder = settings.temporaryStateFolder { try? FileManager.default.removeItem(atPath: folder) } }
        let level = settings.logLevel
        let logger = Logger(label: name) { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var base = DependencyValues()
        // A service made here waits, within a session's work, on that session's clock.
        if settings.configuration.testing { base.clock = SessionRoutedClock(server: ManualClock()) }
        let dependencies: DependencyValues
        do {
            dependencies = try makeDependencies(base)
        } catch {
            throw ValidationError(String(describing: error))
        }
        logger.info("Sessions are saved in \(settings.stateLocation).")
        if settings.configuration.testing { logger.notice("Testing mode: the clock moves only through POST /testing/clock/advance.") }
        let app = Application(configuration: settings.configuration, catalogue: catalogue, dependencies: dependencies, logger: logger)
        let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [.sigint, .sigterm], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            let port: Int
            do {
                port = try await app.listeningPort
            } catch {
                group.cancelAll()
                throw error
            }
            FileHandle.standardOutput.write(Data("\(name) listening on http://\(settings.configuration.http.host):\(port)\n".utf8))
            // What ran only at start (the settings, the contract, the store's restore) is done.
            StartupCode.release()
            try await group.waitForAll()
        }
        logger.info("stopped")
    }
}
