import Foundation
import GRDB
import GRDBSQLite
import MVVMCore
import TestSupport
import Testing

@testable import MVVMSQLite

@Suite("SQLite's result codes go through one checker")
struct SQLiteResultTests {
    @Test("The code a call succeeds with passes; any other is thrown as a DatabaseError with its code, the connection's message and the statement")
    func checker() throws {
        try SQLiteResult.check(SQLITE_OK, connection: nil)
        try SQLiteResult.check(SQLITE_DONE, success: SQLITE_DONE, connection: nil)
        let error = try #require(throws: DatabaseError.self) {
            try SQLiteResult.check(SQLITE_FULL, connection: nil, sql: "INSERT INTO session VALUES (?)")
        }
        #expect(error.resultCode == .SQLITE_FULL)
        #expect(error.sql == "INSERT INTO session VALUES (?)")
        #expect(throws: DatabaseError.self) { try SQLiteResult.check(SQLITE_ROW, success: SQLITE_DONE, connection: nil) }
    }

    @Test("A commit on a full disk throws the step's checked error, and the store still commits once there is room")
    func fullDiskThroughTheChecker() async throws {
        try await StateFile.withTemporary { file in
            let store = try SQLiteStateStore(path: file)
            let session = SavedSession(
                id: "s", createdAt: 1, lastUsed: 2, version: 1, navigation: Array(repeating: UInt8(ascii: "n"), count: 100_000), entries: [])
            try store.simulate(.diskFull)
            let error = await #expect(throws: DatabaseError.self) { try await store.commit([.save(session)]) }
            #expect(error?.resultCode == .SQLITE_FULL)
            try store.simulate(nil)
            try await store.commit([.save(session)])
            #expect(try await store.session("s")?.version == 1)
            await store.close()
        }
    }
}
