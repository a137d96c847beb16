import Foundation
import MVVMCore
import TestSupport
import Testing

@testable import MVVMSQLite

@Suite("Taking a saved session over: its fence grows, and versions start above every one given before")
struct SessionTakeoverTests {
    @Test("Each takeover raises the saved session's fence by one; nothing saved gives nil")
    func takeoverRaisesTheFence() async throws {
        try await StateFile.withTemporary { file in
            let store = try SQLiteStateStore(path: file)
            let saved = SavedSession(id: "s", createdAt: 1, lastUsed: 2, version: 41, navigation: Array("null".utf8), entries: [])
            try await store.commit([.save(saved)])
            let first = try #require(try await store.adopt("s"))
            let second = try #require(try await store.adopt("s"))
            #expect(first.fence == 1)
            #expect(second.fence == 2)
            #expect(second.version == 41)
            #expect(try await store.adopt("unknown") == nil)
            #expect(try await store.session("s")?.fence == 2)
            await store.close()
        }
    }

    @Test("A taken-over session numbers from above its fence's range of 2^32, or from its saved version when higher")
    func firstVersionIsAboveThePreviousHolders() {
        var saved = SavedSession(id: "s", createdAt: 0, lastUsed: 0, version: 12, navigation: nil, entries: [])
        #expect(saved.firstVersion == 12)
        saved.fence = 1
        #expect(saved.firstVersion == 1 << 32)
        saved.fence = 3
        // A previous holder (fence 2) gave numbers up to 3 << 32 without saving them.
        #expect(saved.firstVersion > (2 << 32) + 1_000_000)
        saved.version = (3 << 32) + 5
        #expect(saved.firstVersion == (3 << 32) + 5)
    }
}
