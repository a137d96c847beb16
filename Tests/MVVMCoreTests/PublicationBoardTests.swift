import Foundation
import MVVMCore
import MVVMJSON
import MVVMSupport
import TestSupport
import Testing

extension Core {
    /// Clients long-poll for the next version: `PublicationBoard.next(after:on:timeout:)` waits
    /// without holding a thread and ends with a newer document, a timeout, a cancellation or the
    /// context's end.
    @Suite("Waiting for the next version", .timeLimit(.minutes(1)))
    struct PublicationBoardTests {
        private static func document(_ version: UInt64) -> PublicationBoard.Document {
            PublicationBoard.Document(version: version, body: Data("v\(version)".utf8))
        }

        /// Waits until `count` waiters are registered, so that what follows wakes them (rather
        /// than finding a newer document at once).
        private static func waitForWaiters(_ count: Int, on board: PublicationBoard) async throws {
            #expect(try await eventually { board.waiterCount >= count }, "\(count) waiters registered")
        }

        @Test("A waiter is woken by the next publication with the newer document")
        func wokenByANewerDocument() async throws {
            let board = PublicationBoard()
            board.publish(Self.document(1), on: .scene("trip"))
            let waiter = Task { await board.next(after: 1, on: .scene("trip"), timeout: .seconds(30)) }
            try await Self.waitForWaiters(1, on: board)

            board.publish(Self.document(2), on: .scene("trip"))
            guard case .newer(let document) = await waiter.value else {
                Issue.record("expected a newer document")
                return
            }
            #expect(document.version == 2)
            #expect(document.body == Data("v2".utf8))
            #expect(board.waiterCount == 0)
        }

        @Test("A document newer than the one the client has is answered at once")
        func newerDocumentAnswersAtOnce() async {
            let board = PublicationBoard()
            board.publish(Self.document(7), on: .navigation)
            guard case .newer(let document) = await board.next(after: 3, on: .navigation, timeout: .seconds(30)) else {
                Issue.record("expected the current document")
                return
            }
            #expect(document.version == 7)
            #expect(board.waiterCount == 0)
        }

        @Test("A publication on another topic does not wake the waiter")
        func otherTopicsDoNotWake() async throws {
            let board = PublicationBoard()
            board.publish(Self.document(1), on: .scene("a"))
            let waiter = Task { await board.next(after: 1, on: .scene("a"), timeout: .seconds(30)) }
            try await Self.waitForWaiters(1, on: board)
            board.publish(Self.document(2), on: .scene("b"))
            board.publish(Self.document(3), on: .events)
            #expect(board.waiterCount == 1, "still waiting")
            board.publish(Self.document(4), on: .scene("a"))
            guard case .newer(let document) = await waiter.value else {
                Issue.record("expected a newer document")
                return
            }
            #expect(document.version == 4)
        }

        @Test("With nothing published, the wait times out with .timedOut and leaves no waiter behind")
        func timesOut() async {
            let board = PublicationBoard()
            board.publish(Self.document(1), on: .scene("trip"))
            guard case .timedOut = await board.next(after: 1, on: .scene("trip"), timeout: .milliseconds(20)) else {
                Issue.record("expected .timedOut")
                return
            }
            #expect(board.waiterCount == 0)
        }

        @Test("Cancelling the waiting task ends the wait with .cancelled and leaves no waiter behind")
        func cancelled() async throws {
            let board = PublicationBoard()
            board.publish(Self.document(1), on: .scene("trip"))
            let waiter = Task { await board.next(after: 1, on: .scene("trip"), timeout: .seconds(30)) }
            try await Self.waitForWaiters(1, on: board)
            waiter.cancel()
            guard case .cancelled = await waiter.value else {
                Issue.record("expected .cancelled")
                return
            }
            #expect(board.waiterCount == 0)
        }

        @Test("A task cancelled before it waits gets .cancelled at once")
        func cancelledBeforeWaiting() async {
            let board = PublicationBoard()
            board.publish(Self.document(1), on: .scene("trip"))
            let outcome = await withTaskGroup(of: PublicationBoard.WaitOutcome.self) { group in
                group.cancelAll()
                group.addTask { await board.next(after: 1, on: .scene("trip"), timeout: .seconds(30)) }
                return await group.next()!
            }
            guard case .cancelled = outcome else {
                Issue.record("expected .cancelled, got \(outcome)")
                return
            }
            #expect(board.waiterCount == 0)
        }

        @Test("Many waiters on one topic are all woken by one change")
        func manyWaitersOneChange() async throws {
            let board = PublicationBoard()
            board.publish(Self.document(1), on: .scene("film/1"))
            let waiters = (0..<20).map { _ in Task { await board.next(after: 1, on: .scene("film/1"), timeout: .seconds(30)) } }
            try await Self.waitForWaiters(20, on: board)

            board.publish(Self.document(2), on: .scene("film/1"))
            for waiter in waiters {
                guard case .newer(let document) = await waiter.value else {
                    Issue.record("every waiter gets the newer document")
                    continue
                }
                #expect(document.version == 2)
            }
            #expect(board.waiterCount == 0)
        }

        @Test("close() wakes every waiter with .closed, and later waits end at once with .closed")
        func closeWakesEveryone() async throws {
            let board = PublicationBoard()
            board.publish(Self.document(1), on: .scene("a"))
            let waiters = [
                Task { await board.next(after: 1, on: .scene("a"), timeout: .seconds(30)) },
                Task { await board.next(after: 1, on: .scene("a"), timeout: .seconds(30)) },
                Task { await board.next(after: 0, on: .navigation, timeout: .seconds(30)) },
            ]
            try await Self.waitForWaiters(3, on: board)

            board.close()
            for waiter in waiters {
                guard case .closed = await waiter.value else {
                    Issue.record("every waiter is woken with .closed")
                    continue
                }
            }
            #expect(board.isClosed)
            #expect(board.waiterCount == 0)
            #expect(board.document(.scene("a")) == nil)
            guard case .closed = await board.next(after: 1, on: .scene("a"), timeout: .seconds(30)) else {
                Issue.record("a closed board answers .closed at once")
                return
            }
        }

        @Test("A document is current until its topic is published again (even with the same version), removed, or the board closed")
        func currentDocument() {
            let board = PublicationBoard()
            let first = Self.document(1)
            #expect(!board.isCurrent(first, on: .scene("trip")))
            board.publish(first, on: .scene("trip"))
            #expect(board.isCurrent(first, on: .scene("trip")))
            #expect(!board.isCurrent(first, on: .scene("bike")))

            // A view model made again under the same key counts its versions again.
            let remade = Self.document(1)
            board.publish(remade, on: .scene("trip"))
            #expect(!board.isCurrent(first, on: .scene("trip")))
            #expect(board.isCurrent(remade, on: .scene("trip")))

            board.remove(.scene("trip"))
            #expect(!board.isCurrent(remade, on: .scene("trip")))
            let navigation = Self.document(2)
            board.publish(navigation, on: .navigation)
            board.close()
            #expect(!board.isCurrent(navigation, on: .navigation))
        }

        @Test(
            "A document read as current stays so until its topic is published again with another document, removed, or the board closed; published again, it is current again"
        )
        func stillCurrentDocument() throws {
            let board = PublicationBoard()
            board.publish(Self.document(1), on: .scene("trip"))
            let first = try #require(board.document(.scene("trip")))
            #expect(board.isStillCurrent(first))
            board.publish(first, on: .scene("trip"))
            #expect(board.isStillCurrent(first), "the same document published again")
            board.publish(Self.document(1), on: .scene("bike"))
            #expect(board.isStillCurrent(first), "another topic's publication")
            let second = Self.document(2)
            board.publish(second, on: .scene("trip"))
            #expect(!board.isStillCurrent(first))
            #expect(board.isStillCurrent(second))
            board.publish(first, on: .scene("trip"))
            #expect(board.isStillCurrent(first) && !board.isStillCurrent(second))
            board.remove(.scene("trip"))
            #expect(!board.isStillCurrent(first))
            board.publish(second, on: .scene("trip"))
            let bike = try #require(board.document(.scene("bike")))
            board.close()
            #expect(!board.isStillCurrent(second) && !board.isStillCurrent(bike))
        }

        @Test("A snapshot's document is written when first read, the same bytes for every reader")
        func snapshotDocumentWrittenOnRead() async throws {
            let snapshot = try Snapshot(sections: [
                Snapshot.Section(
                    id: "films",
                    items: [
                        Snapshot.Item(id: "1", cell: "film", fields: ["title": .string("A New Hope")])
                    ])
            ])
            let document = PublicationBoard.Document(version: 7, snapshot: snapshot)
            let expected = SnapshotDocument(version: 7, sections: snapshot.sections).jsonData
            let readers = (0..<8).map { _ in Task.detached { document.body } }
            for reader in readers { #expect(await reader.value == expected) }
            #expect(String(decoding: document.body, as: UTF8.self).hasPrefix(#"{"kind":"snapshot","sections":[{"#))
        }

        @Test("A view model's change wakes a client waiting on its scene's state")
        func sceneChangeWakesAWaiter() async throws {
            let catalogue = SceneCatalogue(
                scenes: [Scene("trip", key: "trip", viewModel: TripViewModel.self, factory: DefaultViewModelFactory())], rootKey: "trip")
            let context = ContextActor(id: "long-poll", catalogue: catalogue, dependencies: DependencyValues())
            _ = try await context.state(of: "trip")
            let loaded = try await context.board.waitForLifecycle(.loaded, of: "trip").version
            let waiter = Task { await context.board.next(after: loaded, on: .scene("trip"), timeout: .seconds(30)) }
            try await Self.waitForWaiters(1, on: context.board)
            _ = try await context.setInput(["from": .string("Paris"), "to": .string("Rome")], key: "trip")
            guard case .newer(let document) = await waiter.value else {
                Issue.record("expected the new state")
                return
            }
            let state = try SceneState<TripViewModel.Input, TripViewModel.Output>(document)
            #expect(state.output == TripViewModel.Output(kilometres: 1420, hours: 14))
            #expect(state.version > loaded)
            await context.close()
        }
    }
}
