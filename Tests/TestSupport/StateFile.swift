import Foundation

/// A state file's path in a temporary folder of its own.
public enum StateFile {
    /// Runs `body` with the path of a file not yet made, in a new temporary folder that is
    /// removed, with everything in it, once `body` returns or throws.
    public static func withTemporary(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "mvvm-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.appending(path: "state.sqlite").path)
    }
}
