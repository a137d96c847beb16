import Foundation
import MVVMServer
import MVVMServerTesting
import Testing

@testable import Scenes

/// The example app's contract: every type described exactly, and the committed copy
/// (`Sources/Scenes/openapi.json`, written by `server --contract`) current.
@Suite("The example app's contract")
struct ContractTests {
    @Test("Every type of the app is described exactly: no warning")
    func exact() {
        #expect(Application.contractWarnings(of: StarWarsApp.catalogue()).isEmpty)
    }

    @Test("The committed contract is the current one, to the byte")
    func committed() throws {
        let file = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../Sources/Scenes/openapi.json")
        let changes = try TestServer.starWars().contractChanges(since: file)
        #expect(changes.isEmpty, "run `.build/debug/server --contract > Sources/Scenes/openapi.json`: \(changes)")
        // Byte for byte: the file was written on another machine, by another process.
        #expect(try Data(contentsOf: file) == Application.contract(of: StarWarsApp.catalogue()))
    }
}
