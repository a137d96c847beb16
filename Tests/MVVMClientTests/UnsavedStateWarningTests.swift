import Foundation
import MVVMServer
import ServerTestSupport
import TestSupport
import Testing

@Suite("A warning when view models write saved state that nothing saves")
struct UnsavedStateWarningTests {
    static func warnings(_ lines: CapturedLogLines) -> [CapturedLogLine] {
        lines.all.filter { $0.level == .warning && $0.message.contains("saved state") }
    }

    static func tapTwiceInTwoSessions(_ server: TestApplication) async throws {
        for _ in 0..<2 {
            let id = try await server.createSession()
            for _ in 0..<2 {
                #expect(try await server.request("POST", "/sessions/\(id)/scenes/tally/actions/tap").status == 200)
            }
        }
    }

    @Test("Without a store, the first write of a scene's saved state logs one warning naming the scene; later writes, in any session, log none")
    func warnsOncePerScene() async throws {
        let lines = CapturedLogLines()
        let server = try await TestApplication(
            catalogue: BoardApp.catalogue, logger: Logger(label: "warning-test") { _ in CapturingLogHandler(lines: lines) })
        try await Self.tapTwiceInTwoSessions(server)
        await server.stop()
        let warnings = Self.warnings(lines)
        #expect(warnings.count == 1)
        #expect(warnings.first?.metadata["scene"] == "tally")
    }

    @Test("With ``SessionStorage/memory`` it warns too; with a state file, it does not")
    func warnsOnlyWithoutStore() async throws {
        let inMemory = CapturedLogLines()
        let memoryServer = try await TestApplication(
            catalogue: BoardApp.catalogue, logger: Logger(label: "warning-test") { _ in CapturingLogHandler(lines: inMemory) }
        ) {
            $0.storage = .memory
        }
        try await Self.tapTwiceInTwoSessions(memoryServer)
        await memoryServer.stop()
        #expect(Self.warnings(inMemory).count == 1)

        let folder = FileManager.default.temporaryDirectory.appending(path: "mvvm-warning-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = CapturedLogLines()
        let savingServer = try await TestApplication(
            catalogue: BoardApp.catalogue, logger: Logger(label: "warning-test") { _ in CapturingLogHandler(lines: saved) }
        ) {
            $0.storage = .sqlite(path: folder.appending(path: "state.sqlite").path)
        }
        try await Self.tapTwiceInTwoSessions(savingServer)
        await savingServer.stop()
        #expect(Self.warnings(saved).isEmpty)
    }
}
