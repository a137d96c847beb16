import Foundation
import MVVMCore
import TestSupport
import Testing

@testable import MVVMSQLite

@Suite("The state file's log is copied back in the background, and stays bounded")
struct StateCheckpointTests {
    /// A session whose navigation fills about one page of the file.
    static func session(_ number: Int) -> SavedSession {
        SavedSession(
            id: "session-\(number)", createdAt: 1, lastUsed: 2, version: UInt64(number),
            navigation: Array(repeating: UInt8(ascii: "n"), count: 3000), entries: [])
    }

    static func commit(_ sessions: Range<Int>, to store: SQLiteStateStore) async throws {
        for number in sessions {
            try await store.commit([.save(session(number))])
        }
    }

    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test("Once commits leave enough uncopied pages in the log, a checkpoint copies them into the file off the writer")
    func checkpointsInTheBackground() async throws {
        try await StateFile.withTemporary { file in
            let store = try SQLiteStateStore(path: file, walPages: 16)
            let before = Self.size(of: file)
            try await Self.commit(0..<40, to: store)
            #expect(try await eventually { store.backgroundCheckpoints >= 1 })
            // The pages reached the database file itself, not only the log.
            #expect(Self.size(of: file) >= before + 16 * 4096, "file \(Self.size(of: file)) bytes, before \(before)")
            #expect(try await store.sessionCount() == 40)
            await store.close()
        }
    }

    @Test("Commits that never pause still see the log start over: it stays near its limit, and nothing is lost")
    func logStaysBounded() async throws {
        try await StateFile.withTemporary { file in
            let store = try SQLiteStateStore(path: file, walPages: 8)
            // Ten times the limit (32 pages) in pages of sessions, one commit after another.
            try await Self.commit(0..<320, to: store)
            let frame = 4096 + 24
            let log = Self.size(of: file + "-wal")
            // The limit, and the pages of the commit that crossed it.
            #expect(log <= 32 + (40 * frame), "log of \(log) bytes")
            await store.close()
            let reopened = try SQLiteStateStore(path: file)
            #expect(try await reopened.sessionCount() == 320)
            #expect(try await reopened.session("session-319")?.version == 319)
            await reopened.close()
        }
    }
}
