import ArgumentParser
import Foundation
import MVVMServer
import ServerTestSupport
import Testing

@Suite("The settings every app takes: flags, then environment, then code, then defaults")
struct ServerOptionsTests {
    static let home = ["HOME": "/home/someone"]

    static func options(_ arguments: String...) throws -> ServerOptions {
        try ServerOptions.parse(arguments)
    }

    @Test("With nothing given, the defaults, and sessions saved in the app's own file under ~/.local/state")
    func defaults() throws {
        let configuration = try Self.options().configuration(appName: "todo", environment: Self.home)
        #expect(configuration.http.host == "127.0.0.1")
        #expect(configuration.http.port == 8080)
        #expect(configuration.maxWaitSeconds == 60)
        #expect(configuration.storage != nil)
        #expect(ServerOptions.defaultStateFile(appName: "todo", environment: Self.home) == "/home/someone/.local/state/todo/state.sqlite")
        #expect(ServerOptions.defaultStateFile(appName: "todo", environment: ["HOME": "/h", "XDG_STATE_HOME": "/xdg"]) == "/xdg/todo/state.sqlite")
        // A relative XDG_STATE_HOME is ignored, as the XDG specification asks.
        #expect(
            ServerOptions.defaultStateFile(appName: "todo", environment: ["HOME": "/h", "XDG_STATE_HOME": "xdg"])
                == "/h/.local/state/todo/state.sqlite")
    }

    @Test("A flag wins over its variable, which wins over the code")
    func precedence() throws {
        var code = ApplicationConfiguration()
        code.http.port = 9000
        code.maxSessions = 5
        code.maxWaitSeconds = 30
        let environment = Self.home.merging(["MVVM_PORT": "9100", "MVVM_MAX_WAIT": "12.5"]) { $1 }
        let configuration = try Self.options("--port", "9200").configuration(appName: "todo", code: code, environment: environment)
        #expect(configuration.http.port == 9200)
        #expect(configuration.maxWaitSeconds == 12.5)
        #expect(configuration.maxSessions == 5)
        #expect(try Self.options().logLevel(code: .notice, environment: ["MVVM_LOG_LEVEL": "debug"]) == .debug)
        #expect(try Self.options("--log-level", "error").logLevel(code: .notice, environment: ["MVVM_LOG_LEVEL": "debug"]) == .error)
        #expect(try Self.options().logLevel(code: .notice, environment: [:]) == .notice)
    }

    @Test(
        "Testing mode without --state saves in a file of its own, never in the app's default file or the one its code sets; --state still names one")
    func testingModeState() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "mvvm-options-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["HOME": "/nonexistent", "XDG_STATE_HOME": folder.path]
        let defaultFile = folder.appending(path: "todo/state.sqlite").path

        // Saved in a file (a restart on the same settings finds the session), not the app's.
        #expect(try await Self.sessionSurvivesRestart(Self.options("--testing").configuration(appName: "todo", environment: environment)) == true)
        #expect(!FileManager.default.fileExists(atPath: defaultFile))
        var code = ApplicationConfiguration()
        let codeFile = folder.appending(path: "code/state.sqlite").path
        code.storage = .sqlite(path: codeFile)
        #expect(
            try await Self.sessionSurvivesRestart(Self.options("--testing").configuration(appName: "todo", code: code, environment: environment))
                == true)
        #expect(!FileManager.default.fileExists(atPath: codeFile))

        let given = folder.appending(path: "given/tests.sqlite").path
        #expect(
            try await Self.sessionSurvivesRestart(
                Self.options("--testing", "--state", given).configuration(appName: "todo", environment: environment)) == true
        )
        #expect(FileManager.default.fileExists(atPath: given))
    }

    @Test("Allowed hosts and origins: the repeated flag, else the comma-separated variable, else the code")
    func allowedHostsAndOrigins() throws {
        var code = ApplicationConfiguration()
        code.http.allowedHosts = ["code.example"]
        #expect(try Self.options().configuration(appName: "todo", code: code, environment: Self.home).http.allowedHosts == ["code.example"])
        let environment = Self.home.merging(["MVVM_ALLOWED_HOSTS": "a.example, *.dev.test", "MVVM_ALLOWED_ORIGINS": "http://localhost:3000"]) { $1 }
        let fromVariables = try Self.options().configuration(appName: "todo", code: code, environment: environment)
        #expect(fromVariables.http.allowedHosts == ["a.example", "*.dev.test"])
        #expect(fromVariables.http.allowedOrigins == ["http://localhost:3000"])
        let fromFlags = try Self.options("--allowed-host", "b.example", "--allowed-host", "c.example", "--allowed-origin", "https://app.example")
            .configuration(appName: "todo", code: code, environment: environment)
        #expect(fromFlags.http.allowedHosts == ["b.example", "c.example"])
        #expect(fromFlags.http.allowedOrigins == ["https://app.example"])
    }

    @Test("Bad values are refused with the flag or variable named")
    func refusals() throws {
        func message(_ arguments: [String], _ environment: [String: String] = [:]) -> String? {
            do {
                _ = try ServerOptions.parse(arguments).configuration(appName: "todo", environment: Self.home.merging(environment) { $1 })
                return nil
            } catch {
                return ServerOptions.message(for: error)
            }
        }
        #expect(message([], ["MVVM_PORT": "eighty"])?.contains("MVVM_PORT=eighty") == true)
        #expect(message(["--max-wait", "100000"])?.contains("--max-wait (or MVVM_MAX_WAIT)") == true)
        #expect(message(["--threads", "0"])?.contains("--threads") == true)
        #expect(message(["--state", "mysql://db/x"])?.contains("mysql://") == true)
        #expect(message([], ["MVVM_INSTANCE": "two\nlines"])?.contains("--instance") == true)
        #expect(message(["--allowed-host", "http://evil"])?.contains("--allowed-host http://evil") == true)
        #expect(message(["--allowed-origin", "*"])?.contains("--allowed-origin *") == true)
        #expect(message([], ["MVVM_ALLOWED_ORIGINS": "http://ok.example,null"])?.contains("MVVM_ALLOWED_ORIGINS null") == true)
        #expect(throws: (any Error).self) { try ServerOptions.parse(["--port", "x"]) }
        #expect(throws: (any Error).self) { try Self.options().logLevel(environment: ["MVVM_LOG_LEVEL": "loud"]) }
        #expect(throws: (any Error).self) { try Self.options().configuration(appName: "../elsewhere", environment: Self.home) }
        #expect(throws: (any Error).self) { try Self.options().configuration(appName: "", environment: Self.home) }
    }

    /// Makes a session in a run on `configuration`, and says whether a second run on the same
    /// settings still knows it (its sessions were saved, and restored).
    static func sessionSurvivesRestart(_ configuration: ApplicationConfiguration) async throws -> Bool {
        let setUp: (inout ApplicationConfiguration) -> Void = {
            $0 = configuration
            $0.http.port = 0
        }
        let first = try await TestApplication(catalogue: APIFixtures.catalogue(), configure: setUp)
        let id: String
        do {
            id = try await first.createSession()
        } catch {
            await first.stop()
            throw error
        }
        await first.stop()
        let second = try await TestApplication(catalogue: APIFixtures.catalogue(), configure: setUp)
        let status: Int
        do {
            status = try await second.request("GET", "/sessions/\(id)").status
        } catch {
            await second.stop()
            throw error
        }
        await second.stop()
        return status == 200
    }

    @Test(
        "By default sessions are saved in $XDG_STATE_HOME/<app>/state.sqlite and come back; --state none keeps them in memory; a file or a scheme's URL is used as given"
    )
    func state() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "mvvm-options-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["HOME": "/nonexistent", "XDG_STATE_HOME": folder.path]
        let defaultFile = folder.appending(path: "todo/state.sqlite").path

        #expect(
            try await Self.sessionSurvivesRestart(Self.options("--state", "none").configuration(appName: "todo", environment: environment)) == false)
        #expect(!FileManager.default.fileExists(atPath: defaultFile))

        #expect(try await Self.sessionSurvivesRestart(Self.options().configuration(appName: "todo", environment: environment)) == true)
        #expect(FileManager.default.fileExists(atPath: defaultFile))

        let given = folder.appending(path: "given/elsewhere.sqlite").path
        #expect(
            try await Self.sessionSurvivesRestart(
                Self.options().configuration(appName: "todo", environment: environment.merging(["MVVM_STATE": given]) { $1 })) == true)
        #expect(FileManager.default.fileExists(atPath: given))

        let viaScheme = folder.appending(path: "scheme.sqlite").path
        let scheme = SessionStorageScheme(names: ["memo"]) { _ in .sqlite(path: viaScheme) }
        #expect(scheme.takes("memo://anything"))
        #expect(!scheme.takes("memo.sqlite"))
        #expect(
            try await Self.sessionSurvivesRestart(
                Self.options("--state", "memo://x").configuration(appName: "todo", storageSchemes: [scheme], environment: environment)) == true)
        #expect(FileManager.default.fileExists(atPath: viaScheme))
        #expect(throws: (any Error).self) { try Self.options("--state", "memo://x").configuration(appName: "todo", environment: environment) }
    }
}
