// The server's application with its default settings, on the port given, for callgrind.
import Foundation
import Logging
import MVVMServer
import Scenes

guard CommandLine.arguments.count == 2, let port = Int(CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: harness PORT\n".utf8))
    exit(2)
}
var settings = ApplicationConfiguration()
settings.http.host = "127.0.0.1"
settings.http.port = port
// CALLGRIND_STATE names a state file: the count then includes saving every change.
settings.storage = ProcessInfo.processInfo.environment["CALLGRIND_STATE"].map { .sqlite(path: $0) }
var logger = Logger(label: "harness")
logger.logLevel = .warning
let app = Application(configuration: settings, catalogue: StarWarsApp.catalogue(), dependencies: try StarWarsApp.dependencies(), logger: logger)
// Detached: top-level code is the main actor's, and the main thread sleeps below.
Task.detached {
    do {
        try await app.run()
    } catch {
        FileHandle.standardError.write(Data("harness: \(error)\n".utf8))
        exit(1)
    }
}
Task.detached {
    guard let port = try? await app.listeningPort else { return }
    FileHandle.standardOutput.write(Data("listening on \(port)\n".utf8))
}
while true { sleep(1000) }
