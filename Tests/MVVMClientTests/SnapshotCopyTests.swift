import Foundation
import MVVMClient
import MVVMServerTesting
import Testing

@Suite("The client's copy of a snapshot, kept current from the server's changes")
struct SnapshotCopyTests {
    typealias Board = BoardApp.Board
    typealias Row = BoardApp.Row

    /// Random rows: up to four sections, up to twelve items, ids drawn from a small pool so that
    /// items come back, move between sections and change title.
    static func randomRows(using generator: inout some RandomNumberGenerator) -> [Row] {
        let sections = ["todo", "doing", "done", "later"]
        var ids = (1...16).map(String.init).shuffled(using: &generator)
        ids.removeLast(Int.random(in: 4...16, using: &generator))
        return ids.map { id in
            Row(
                id: id, section: sections.randomElement(using: &generator)!, title: ["a", "b", "c"].randomElement(using: &generator)!,
                done: Bool.random(using: &generator))
        }
    }

    @Test(
        "After a run of random inputs, the copy equals the server's whole snapshot; changes applied, whole-snapshot fallbacks included",
        arguments: TestMode.allCases)
    func followsRandomInputs(mode: TestMode) async throws {
        try await TestServer(catalogue: BoardApp.catalogue).test(mode) { client in
            var generator = SeededGenerator(seed: 0x5EED + UInt64(mode == .live ? 1 : 0))
            let board = try await client.createSession().scene("board", input: Board.Input.self, output: Board.Output.self)
            var copy = try await board.snapshotCopy()
            var applied = 0
            var replaced = 0
            for round in 0..<120 {
                // Now and then many versions pass unread: more than the server keeps (16), so
                // that it answers the whole snapshot instead of changes.
                let versions = round % 15 == 14 ? 20 : 1
                for _ in 0..<versions {
                    var input = Board.Input()
                    input.rows = Self.randomRows(using: &generator)
                    try await board.setInput(input)
                }
                switch try await copy.update() {
                case .applied: applied += 1
                case .replaced: replaced += 1
                case .unchanged: break
                }
                let server = try await board.snapshot()
                #expect(copy.snapshot == server, "round \(round)")
                if copy.snapshot != server { return }
            }
            #expect(applied > 80)
            #expect(replaced >= 6)
        }
    }

    @Test("Changes carry the content of inserted and changed items; an item decodes into an app type")
    func changesCarryContent() async throws {
        try await TestServer(catalogue: BoardApp.catalogue).test(.router) { client in
            let board = try await client.createSession().scene("board", input: Board.Input.self, output: Board.Output.self)
            var input = Board.Input()
            input.rows = [Row(id: "1", section: "todo", title: "milk")]
            try await board.setInput(input)
            var copy = try await board.snapshotCopy()

            input.rows = [Row(id: "2", section: "todo", title: "eggs"), Row(id: "1", section: "todo", title: "oat milk", done: true)]
            try await board.setInput(input)
            guard case .applied(let changes) = try await copy.update() else {
                Issue.record("the changes were not applied")
                return
            }
            #expect(changes.insertedItems.map(\.id) == ["2"])
            #expect(changes.changedItems.map(\.id) == ["1"])
            #expect(
                try changes.insertedItems.first?.item?.decode(as: BoardApp.Cell.self)
                    == BoardApp.Cell(id: "2", cell: "row", title: "eggs", done: false))
            let cells = try copy.snapshot.sections[0].items.map { try $0.decode(as: BoardApp.Cell.self) }
            #expect(cells.map(\.title) == ["eggs", "oat milk"])
            #expect(try await copy.update() == .unchanged)
        }
    }

    @Test("update(wait:) long-polls until the snapshot changes", arguments: TestMode.allCases)
    func updateWaits(mode: TestMode) async throws {
        try await TestServer(catalogue: BoardApp.catalogue).test(mode) { client in
            let board = try await client.createSession().scene("board", input: Board.Input.self, output: Board.Output.self)
            var copy = try await board.snapshotCopy()
            let changer = Task {
                try await client.waitUntilParked()
                var input = Board.Input()
                input.rows = [Row(id: "7", section: "later", title: "x")]
                try await board.setInput(input)
            }
            let update = try await copy.update(wait: .seconds(10))
            try await changer.value
            #expect(update != .unchanged)
            #expect(copy.snapshot.itemIDs == [["7"]])
        }
    }

    @Test(
        "changes(since:wait:) answers the changes from a version, which turn the old snapshot into the new; from too old a version, the whole snapshot",
        arguments: TestMode.allCases)
    func publicChanges(mode: TestMode) async throws {
        try await TestServer(catalogue: BoardApp.catalogue).test(mode) { client in
            let board = try await client.createSession().scene("board", input: Board.Input.self, output: Board.Output.self)
            var input = Board.Input()
            input.rows = [Row(id: "1", section: "todo", title: "a"), Row(id: "2", section: "todo", title: "b")]
            try await board.setInput(input)
            let old = try await board.snapshot()
            input.rows = [Row(id: "2", section: "done", title: "b"), Row(id: "3", section: "todo", title: "c")]
            try await board.setInput(input)
            let new = try await board.snapshot()
            guard case .changes(let changes) = try await board.changes(since: old.version, wait: .seconds(5)) else {
                Issue.record("expected changes from version \(old.version)")
                return
            }
            #expect(changes.version == new.version)
            #expect(try old.applying(changes) == new)
            // More versions than the server keeps pass: the answer is the whole snapshot.
            for index in 0..<20 {
                input.rows = [Row(id: "\(index)", section: "todo", title: "t")]
                try await board.setInput(input)
            }
            guard case .snapshot(let whole) = try await board.changes(since: old.version, wait: .seconds(5)) else {
                Issue.record("expected the whole snapshot from a version the server no longer holds")
                return
            }
            #expect(whole == (try await board.snapshot()))
        }
    }
}

/// A small deterministic generator (SplitMix64), so that a failing run can be repeated.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
