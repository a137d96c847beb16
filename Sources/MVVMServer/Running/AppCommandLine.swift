import ArgumentParser
import Synchronization

/// The command line that ``Application/main(name:catalogue:dependencies:configuration:logLevel:storageSchemes:arguments:)``
/// parses: an app's settings (``ServerOptions``) under the app's name, which its usage, its
/// `--help` and its errors show.
struct AppCommandLine: ParsableCommand {
    /// The name the usage shows: the app's, set by `main` before it parses.
    static let name = Mutex("server")

    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: name.withLock { $0 })
    }

    @OptionGroup var options: ServerOptions

    /// The settings in `arguments`, for the app named `name`; exits as
    /// swift-argument-parser does for `--help` (status 0) and for a bad setting (status 64,
    /// with the usage).
    static func parseOrExit(_ arguments: [String], name appName: String) -> ServerOptions {
        name.withLock { $0 = appName }
        return parseOrExit(arguments).options
    }
}
