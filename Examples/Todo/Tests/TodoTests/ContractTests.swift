import Foundation
import MVVMServerTesting
import Testing

@testable import Todo

/// The app's contract: every type described exactly, and the committed copy (`openapi.json`,
/// written by `todo --contract > openapi.json`) current, so that a change a client would
/// notice shows in review.
@Suite("The app's contract")
struct ContractTests {
    @Test("Every type of the app is described exactly: no warning")
    func exact() {
        #expect(Application.contractWarnings(of: TodoApp.catalogue).isEmpty)
    }

    @Test("The committed contract is the current one, to the byte")
    func committed() throws {
        let file = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../openapi.json")
        let changes = try TestServer(catalogue: TodoApp.catalogue).contractChanges(since: file)
        #expect(changes.isEmpty, "run `todo --contract > openapi.json`: \(changes)")
        // Byte for byte: the file was written on another machine, by another process.
        #expect(try Data(contentsOf: file) == Application.contract(of: TodoApp.catalogue))
    }
}
