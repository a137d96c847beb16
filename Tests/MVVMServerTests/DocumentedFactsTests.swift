import ArgumentParser
import Foundation
import Testing

@testable import MVVMServer

/// The numbers and defaults the docs state, read from the docs and checked against the code:
/// the settings' table of the article "Running an app" against `ServerOptions` (its flags, their
/// variables, their defaults in `--help` and in the configuration they resolve to), the
/// address the README gives, the PostgreSQL trait's default, the fuzzing time per target, and
/// the count of public declarations. A default changed in one place and not the other fails here.
@Suite("The facts the docs state are the code's")
struct DocumentedFactsTests {
    static func text(_ path: String) throws -> String {
        try Repository.text(path)
    }

    /// The documents a reader is told facts in: the repository's own and the DocC articles.
    static func documents() throws -> [(path: String, text: String)] {
        let articles = DocumentationCodeTests.articles().map { "Sources/MVVMServer/MVVMServer.docc/\($0)" }
        return try (["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "RELIABILITY.md"] + articles).map { ($0, try text($0)) }
    }

    /// A row of the settings' table: the flag, its variable and its default, as written.
    struct SettingRow: Equatable {
        var flag: String
        var variable: String
        var defaultValue: String
    }

    /// The rows of the table under "## Settings" in the article "Running an app".
    static func settingsTable() throws -> [SettingRow] {
        let article = try text("Sources/MVVMServer/MVVMServer.docc/RunningAnApp.md")
        let section = try #require(article.components(separatedBy: "## Settings").dropFirst().first)
        return section.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5, cells[1].hasPrefix("`--") else { return nil }
            let unquoted = { (cell: String) in cell.trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
            return SettingRow(flag: unquoted(cells[1]), variable: unquoted(cells[2]), defaultValue: unquoted(cells[3]))
        }
    }

    /// A flag of `ServerOptions --help`: its name, its variable and its default, as the help says them.
    struct HelpEntry {
        var flag: String
        var variable: String?
        var defaultValue: String?
    }

    /// The flags `--help` lists, with what its text says of each ("default X; env MVVM_Y"): an
    /// entry starts at a line that starts with a flag, and goes on over the lines indented below it.
    static func helpEntries() throws -> [HelpEntry] {
        let flag = try Regex(#"^\s+(--[a-z-]+)"#)
        let variable = try Regex(#"env (MVVM_[A-Z_]+)"#)
        let defaultValue = try Regex(#"\(default ([^;,)]+)"#)
        var texts: [(flag: String, text: String)] = []
        for line in ServerOptions.helpMessage(columns: 10_000).split(separator: "\n") {
            if let name = line.firstMatch(of: flag)?.output[1].substring {
                texts.append((String(name), String(line)))
            } else if line.hasPrefix("    "), !texts.isEmpty {
                texts[texts.count - 1].text += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return texts.filter { $0.flag != "--help" }.map { entry in
            HelpEntry(
                flag: entry.flag,
                variable: entry.text.firstMatch(of: variable)?.output[1].substring.map(String.init),
                defaultValue: entry.text.firstMatch(of: defaultValue)?.output[1].substring.map(String.init))
        }
    }

    @Test("The settings' table lists exactly the flags of --help, each with the variable --help names")
    func tableListsEveryFlag() throws {
        let rows = try Self.settingsTable()
        let entries = try Self.helpEntries()
        #expect(!rows.isEmpty && !entries.isEmpty)
        #expect(rows.map(\.flag).sorted() == entries.map(\.flag).sorted())
        for entry in entries {
            let row = try #require(rows.first { $0.flag == entry.flag })
            if let variable = entry.variable {
                #expect(row.variable == variable, "\(entry.flag): the table says \(row.variable), --help says \(variable)")
            }
        }
    }

    @Test("Each default the settings' table states is the default --help states")
    func tableDefaultsAreTheHelpsDefaults() throws {
        let rows = try Self.settingsTable()
        for entry in try Self.helpEntries() {
            guard let stated = entry.defaultValue else { continue }
            let row = try #require(rows.first { $0.flag == entry.flag })
            #expect(row.defaultValue == stated, "\(entry.flag): the table says \(row.defaultValue), --help says \(stated)")
        }
    }

    @Test("Each default --help states is the value the settings resolve to when none is given")
    func helpDefaultsAreTheCodes() throws {
        let options = try ServerOptions.parse([])
        let configuration = try options.configuration(appName: "facts", environment: ["HOME": "/home/someone"])
        let http = configuration.http
        let actual: [String: String] = [
            "--host": http.host,
            "--port": "\(http.port)",
            "--log-level": "\(try options.logLevel(environment: [:]))",
            "--max-connections": "\(http.maxConnections)",
            "--threads": "\(http.threads)",
            "--connection-timeout": "\(http.connectionTimeoutSeconds)",
            "--max-body-bytes": "\(http.maxBodyBytes)",
            "--connection-memory-limit": "\(http.connectionMemoryLimitBytes)",
            "--max-wait": Self.number(configuration.maxWaitSeconds),
            "--session-idle-timeout": Self.number(configuration.sessionIdleSeconds),
            "--max-sessions": "\(configuration.maxSessions)",
            "--max-parked-per-session": "\(configuration.maxParkedPerSession)",
            "--max-parked": "\(configuration.maxParkedTotal)",
            "--heartbeat-seconds": Self.number(http.streamHeartbeatSeconds),
        ]
        let entries = try Self.helpEntries()
        for (flag, value) in actual {
            let entry = try #require(entries.first { $0.flag == flag }, "--help has no \(flag)")
            #expect(entry.defaultValue == value, "\(flag): --help says \(entry.defaultValue ?? "no default"), the code's default is \(value)")
        }
        // The flags whose default is not a plain value say what it is in words.
        let described = Set(entries.filter { $0.defaultValue != nil }.map(\.flag)).subtracting(actual.keys)
        #expect(described == ["--state-sync"], "a default --help states that this test does not check against the code")
        #expect(configuration.storage != nil, "sessions are saved by default")
        #expect(!configuration.testing && http.allowedHosts.isEmpty && http.allowedOrigins.isEmpty)
    }

    /// A number as the docs write it: without a fraction when it has none.
    static func number(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\(value)"
    }

    @Test("The README's address is the default host and port")
    func readmeAddress() throws {
        let http = HTTPServerConfiguration()
        let readme = try Self.text("README.md")
        #expect(readme.contains("http://\(http.host):\(http.port)"))
        let addresses = readme.matches(of: try Regex(#"http://127\.0\.0\.1:(\d+)"#)).map { String($0.output[1].substring ?? "") }
        #expect(Set(addresses) == ["\(http.port)"], "the README names a port other than the default: \(addresses)")
    }

    @Test("What the docs say of the PostgreSQL trait's default is Package.swift's")
    func traitDefault() throws {
        let manifest = try Self.text("Package.swift")
        let defaults = try #require(manifest.firstMatch(of: try Regex(#"\.default\(enabledTraits: \[([^\]]*)\]\)"#))?.output[1].substring)
        let onByDefault = defaults.contains("\"PostgreSQL\"")
        var statements = 0
        for (path, text) in try Self.documents() {
            for sentence in text.replacingOccurrences(of: "\n", with: " ").split(separator: ".") where sentence.contains("PostgreSQL` trait") {
                guard sentence.contains("by default") else { continue }
                statements += 1
                let saysOff = sentence.contains("off by default")
                #expect(saysOff != onByDefault, "\(path): \"\(sentence.trimmingCharacters(in: .whitespaces))\"")
            }
        }
        #expect(statements > 0, "no document says whether the PostgreSQL trait is on by default")
    }

    @Test("The fuzzing time per target the docs state is scripts/test's")
    func fuzzingTime() throws {
        let script = try Self.text("scripts/test")
        let seconds = try #require(script.firstMatch(of: try Regex(#"fuzz_seconds=\$\{FUZZ_SECONDS:-(\d+)\}"#))?.output[1].substring)
        var statements = 0
        for (path, text) in try Self.documents() {
            for match in text.replacingOccurrences(of: "\n", with: " ").matches(of: try Regex(#"(\d+) s per target"#)) {
                statements += 1
                #expect(match.output[1].substring == seconds, "\(path) says \(match.output[0].substring ?? ""); scripts/test runs \(seconds) s")
            }
        }
        #expect(statements > 0, "no document states the fuzzing time")
        let alone = try #require(try Self.text("scripts/fuzz").firstMatch(of: try Regex(#"FUZZ_SECONDS:-(\d+)"#))?.output[1].substring)
        for (path, text) in try Self.documents() {
            for match in text.matches(of: try Regex(#"(\d+) s alone"#)) {
                #expect(match.output[1].substring == alone, "\(path) says \(match.output[0].substring ?? ""); scripts/fuzz runs \(alone) s")
            }
        }
    }

    @Test("The count of public declarations CONTRIBUTING.md states is the sources' count, by its own command")
    func publicDeclarationCount() throws {
        let contributing = try Self.text("CONTRIBUTING.md")
        let stated = try #require(
            contributing.replacingOccurrences(of: "\n", with: " ").firstMatch(of: try Regex(#"has (\d+) public declarations"#))?.output[1].substring)
        // The command CONTRIBUTING.md gives: grep -rhE '^\s*(@[A-Za-z]+(\([^)]*\))?\s+)*(public|open)\s' --include='*.swift' Sources/MVVM*
        let declaration = try Regex(#"^\s*(@[A-Za-z]+(\([^)]*\))?\s+)*(public|open)\s"#)
        var count = 0
        let sources = Repository.root.appending(path: "Sources")
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) where module.hasPrefix("MVVM") {
            let walker = FileManager.default.enumerator(at: sources.appending(path: module), includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                count += lines.filter { $0.firstMatch(of: declaration) != nil }.count
            }
        }
        #expect(stated == "\(count)", "CONTRIBUTING.md says \(stated) public declarations; the sources have \(count)")
    }
}
