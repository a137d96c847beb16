import ArgumentParser
import Foundation
import Logging
import MVVMHTTP

extension ServerOptions {
    /// The settings resolved: each from its flag, else its environment variable, else the code.
    struct Resolved {
        var configuration: ApplicationConfiguration
        var logLevel: Logger.Level
        /// Where sessions are saved, in words, for the log.
        var stateLocation: String
        /// The folder of a testing-mode server's own state file, which it removes at exit;
        /// `nil` otherwise.
        var temporaryStateFolder: String?
    }

    /// `code` with every setting given on the command line or in `environment` put over it,
    /// for the app named `appName`. Sessions are saved where `--state` says; when it is not
    /// given, where `code.storage` says; when that is `nil` too, in the app's default file
    /// (``defaultStateFile(appName:environment:)``). In testing mode without `--state`, they are
    /// saved in a file of the server's own in a new temporary folder instead, never in the
    /// app's (the entry point removes that folder at exit; a caller of this function removes it
    /// itself).
    /// - Throws: `ValidationError` naming the flag or variable whose value cannot be used.
    public func configuration(
        appName: String, code: ApplicationConfiguration = ApplicationConfiguration(), storageSchemes: [SessionStorageScheme] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> ApplicationConfiguration {
        try resolved(appName: appName, code: code, logLevel: .info, storageSchemes: storageSchemes, environment: environment).configuration
    }

    /// The log level given by `--log-level` or `MVVM_LOG_LEVEL`, else `code`.
    /// - Throws: `ValidationError` when the level given is not one of swift-log's.
    public func logLevel(code: Logger.Level = .info, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Logger.Level {
        guard let text = try setting(logLevel, "log-level", environment) else { return code }
        guard let level = Logger.Level(rawValue: text) else {
            throw ValidationError(
                "\(Self.origin("log-level")) must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), not \(text)")
        }
        return level
    }

    /// The SQLite file an app named `appName` saves its sessions in when nothing else is set:
    /// `$XDG_STATE_HOME/<appName>/state.sqlite` when that variable holds an absolute path, else
    /// `~/.local/state/<appName>/state.sqlite`.
    public static func defaultStateFile(appName: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base =
            environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/state")
        return base + "/" + appName + "/state.sqlite"
    }

    func resolved(
        appName: String, code: ApplicationConfiguration, logLevel codeLevel: Logger.Level, storageSchemes: [SessionStorageScheme],
        environment: [String: String]
    ) throws -> Resolved {
        guard !appName.isEmpty, !appName.hasPrefix("."), appName.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else {
            throw ValidationError(
                "the app's name \"\(appName)\" must be letters, digits, '-', '_' or '.', not starting with '.' (it names the folder of its state file)"
            )
        }
        var configuration = code
        func set<Value: ExpressibleByArgument>(_ field: WritableKeyPath<ApplicationConfiguration, Value>, _ flag: Value?, _ name: String) throws {
            if let value = try setting(flag, name, environment) { configuration[keyPath: field] = value }
        }
        try set(\.http.host, host, "host")
        try set(\.http.port, port, "port")
        try set(\.http.maxConnections, maxConnections, "max-connections")
        try set(\.http.threads, threads, "threads")
        try set(\.http.connectionTimeoutSeconds, connectionTimeout, "connection-timeout")
        try set(\.http.maxBodyBytes, maxBodyBytes, "max-body-bytes")
        try set(\.http.connectionMemoryLimitBytes, connectionMemoryLimit, "connection-memory-limit")
        try set(\.http.streamHeartbeatSeconds, heartbeatSeconds, "heartbeat-seconds")
        try set(\.maxWaitSeconds, maxWait, "max-wait")
        try set(\.sessionIdleSeconds, sessionIdleTimeout, "session-idle-timeout")
        try set(\.maxSessions, maxSessions, "max-sessions")
        try set(\.maxParkedPerSession, maxParkedPerSession, "max-parked-per-session")
        try set(\.maxParkedTotal, maxParked, "max-parked")
        if let name = try setting(instance, "instance", environment) { configuration.instance = name }
        try setList(
            &configuration.http.allowedHosts, allowedHosts, flag: "allowed-host", variable: "MVVM_ALLOWED_HOSTS", rule: "a host name, *.name or *",
            valid: { (try? LocalClientPolicy(allowedHosts: [$0], allowedOrigins: [])) != nil }, environment)
        try setList(
            &configuration.http.allowedOrigins, allowedOrigins, flag: "allowed-origin", variable: "MVVM_ALLOWED_ORIGINS",
            rule: "an origin: http:// or https://, a host and an optional port",
            valid: { LocalClientPolicy.normalizedOrigin($0) != nil }, environment)
        if testing || ["1", "true", "yes"].contains(environment["MVVM_TESTING"]?.lowercased() ?? "") { configuration.testing = true }
        try Self.validate(configuration)
        let level = try logLevel(code: codeLevel, environment: environment)
        if configuration.testing, try setting(self.state, "state", environment) == nil {
            let folder = try Self.makeTemporaryStateFolder(appName: appName)
            let file = folder + "/state.sqlite"
            configuration.storage = .sqlite(path: file, fullSync: false)
            return Resolved(
                configuration: configuration, logLevel: level,
                stateLocation: "\(file) (testing mode: a file of its own, removed at exit; --state names another)",
                temporaryStateFolder: folder)
        }
        let (storage, location) = try storage(appName: appName, code: code.storage, schemes: storageSchemes, environment: environment)
        configuration.storage = storage
        return Resolved(configuration: configuration, logLevel: level, stateLocation: location)
    }

    /// A new folder of the system's temporary directory for a testing-mode server's state file.
    private static func makeTemporaryStateFolder(appName: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(appName)-testing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The storage `--state` (or `MVVM_STATE`) names, else `code`, else the default file; and
    /// where that is, in words.
    private func storage(appName: String, code: SessionStorage?, schemes: [SessionStorageScheme], environment: [String: String]) throws -> (
        SessionStorage, String
    ) {
        let fullSync = try setting(stateSync, "state-sync", environment) == .full
        guard let state = try setting(self.state, "state", environment) else {
            if let code { return (code, "as the app's code sets") }
            let file = Self.defaultStateFile(appName: appName, environment: environment)
            return (.sqlite(path: file, fullSync: fullSync), file)
        }
        if state == "none" { return (.memory, "memory only (--state none)") }
        if let scheme = schemes.first(where: { $0.takes(state) }) {
            return (scheme.storage(state), String(state.prefix { $0 != ":" }) + " database")
        }
        if let schemeEnd = state.range(of: "://") {
            let known = schemes.flatMap(\.names).map { $0 + "://" }
            throw ValidationError(
                """
                \(Self.origin("state")) \(state): this app saves in an SQLite file\(known.isEmpty ? "" : " or " + known.joined(separator: ", ")), \
                not in \(state[..<schemeEnd.lowerBound]):// storage\(known.isEmpty ? " (PostgreSQL needs the app to link MVVMPostgres and pass SessionStorageScheme.postgres)" : "")
                """)
        }
        let file = state.isEmpty ? Self.defaultStateFile(appName: appName, environment: environment) : state
        return (.sqlite(path: file, fullSync: fullSync), file)
    }

    /// The value of a setting: its flag's, else its environment variable's parsed as the flag
    /// would be, else `nil`.
    private func setting<Value: ExpressibleByArgument>(_ flag: Value?, _ name: String, _ environment: [String: String]) throws -> Value? {
        if let flag { return flag }
        let variable = Self.variable(name)
        guard let text = environment[variable] else { return nil }
        guard let value = Value(argument: text) else {
            throw ValidationError("\(variable)=\(text) is not a valid value of --\(name)")
        }
        return value
    }

    /// Puts the values of a repeatable flag, else of its comma-separated variable, over `list`;
    /// leaves it when neither is given.
    /// - Throws: `ValidationError` naming the flag or variable and the first entry that is not
    ///   `valid`, which must be `rule`.
    private func setList(
        _ list: inout [String], _ flags: [String], flag: String, variable: String, rule: String, valid: (String) -> Bool,
        _ environment: [String: String]
    ) throws {
        let given = flags.isEmpty ? environment[variable].map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } : flags
        guard let given else { return }
        if let wrong = given.first(where: { !valid($0) }) {
            throw ValidationError("\(flags.isEmpty ? variable : "--" + flag) \(wrong) must be \(rule)")
        }
        list = given
    }

    /// The environment variable of the flag `--name`.
    static func variable(_ name: String) -> String {
        "MVVM_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// A flag and its variable, for errors.
    static func origin(_ name: String) -> String {
        "--\(name) (or \(variable(name)))"
    }

    /// Refuses settings out of their range, naming the flag.
    private static func validate(_ configuration: ApplicationConfiguration) throws {
        func check(_ holds: Bool, _ name: String, _ rule: String) throws {
            if !holds { throw ValidationError("\(origin(name)) must be \(rule)") }
        }
        let http = configuration.http
        try check((0...65_535).contains(http.port), "port", "from 0 to 65535")
        try check(
            configuration.maxWaitSeconds.isFinite && (0...86_400).contains(configuration.maxWaitSeconds), "max-wait",
            "a number of seconds from 0 to 86400")
        try check(
            configuration.sessionIdleSeconds.isFinite && configuration.sessionIdleSeconds > 0, "session-idle-timeout", "a positive number of seconds")
        try check(
            http.streamHeartbeatSeconds.isFinite && (0.05...86_400).contains(http.streamHeartbeatSeconds), "heartbeat-seconds",
            "a number of seconds from 0.05 to 86400")
        try check((1...64).contains(http.threads), "threads", "from 1 to 64")
        try check(http.maxConnections > 0, "max-connections", "positive")
        try check(configuration.maxSessions > 0, "max-sessions", "positive")
        try check(http.maxBodyBytes >= 0, "max-body-bytes", "zero or more")
        try check(http.connectionTimeoutSeconds > 0, "connection-timeout", "positive")
        try check(http.connectionMemoryLimitBytes > 0, "connection-memory-limit", "positive")
        try check(configuration.maxParkedTotal >= 0, "max-parked", "zero or more")
        try check(configuration.maxParkedPerSession >= 0, "max-parked-per-session", "zero or more")
        if let refusal = configuration.testingHostRefusal {
            throw ValidationError(refusal)
        }
        if let instance = configuration.instance {
            try check(
                !instance.isEmpty && instance.allSatisfy { $0.isASCII && !$0.isNewline && ($0.asciiValue ?? 0) >= 32 }, "instance",
                "a non-empty name of printable ASCII characters")
        }
    }
}
