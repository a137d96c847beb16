import Foundation
import MVVMCore
import TestSupport
import Testing

extension Core {
    /// A change being saved is held on the board: readers and waiters see it only once the hold
    /// is released, and never when it is discarded.
    @Suite("Holding a board while a change is saved", .timeLimit(.minutes(1)))
    struct PublicationBoardHoldTests {
        private static func document(_ version: UInt64) -> PublicationBoard.Document {
            PublicationBoard.Document(version: version, body: Data("v\(version)".utf8))
        }

        @Test("What is published or removed while held is seen only when the last hold is released, in order, waking its waiters then")
        func releasedInOrder() async throws {
            let board = PublicationBoard()
            board.publish(Self.document(1), on: .scene("car"))
            board.publish(Self.document(1), on: .scene("film"))
            let woken = Task { await board.next(after: 1, on: .scene("car"), timeout: .seconds(30)) }
            #expect(try await eventually { board.waiterCount >= 1 })

            board.hold()
            board.hold()
            board.publish(Self.document(2), on: .scene("car"))
            board.publish(Self.document(3), on: .scene("car"))
            board.remove(.scene("film"))
            #expect(board.document(.scene("car"))?.version == 1)
            #expect(board.document(.scene("film"))?.version == 1)
            #expect(board.latestDocument(.scene("car"))?.version == 3, "the held change's own answer reads what it published")
            #expect(board.latestDocument(.scene("film")) == nil)
            board.releaseHold()
            #expect(board.document(.scene("car"))?.version == 1, "one hold is still on")
            #expect(board.waiterCount == 1)

            board.releaseHold()
            #expect(board.document(.scene("car"))?.version == 3)
            #expect(board.document(.scene("film")) == nil)
            guard case .newer(let document) = await woken.value else {
                Issue.record("the waiter was not woken")
                return
            }
            #expect(document.version >= 2)
        }

        @Test("What is held is dropped by discardHeld: readers keep the documents from before, and waiters stay")
        func discarded() async throws {
            let board = PublicationBoard()
            board.publish(Self.document(1), on: .scene("car"))
            board.hold()
            board.publish(Self.document(2), on: .scene("car"))
            board.remove(.scene("car"))
            let waiting = board.waitForNewer(than: 1, on: .scene("car")) { _ in Issue.record("woken by a dropped change") }
            board.discardHeld()
            #expect(board.document(.scene("car"))?.version == 1)
            #expect(board.latestDocument(.scene("car"))?.version == 1)
            guard case .waiting(let token) = waiting else {
                Issue.record("expected to wait")
                return
            }
            // Not held any more: the next publication is seen at once.
            board.cancel(token)
            board.publish(Self.document(4), on: .scene("car"))
            #expect(board.document(.scene("car"))?.version == 4)
        }
    }
}
