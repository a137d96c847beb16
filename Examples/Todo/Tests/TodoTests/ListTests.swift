import MVVMClient
import MVVMServerTesting
import Testing

@testable import Todo

@Test("The list adds, toggles, filters and deletes to-dos, shown as a section to do and a section done", arguments: TestMode.allCases)
func editsTheList(mode: TestMode) async throws {
    try await TestServer.todo().test(mode) { client in
        let list = try await client.createSession().list
        _ = try await list.state { $0.isLoaded }
        let store = try await SceneStore(list)
        try await store.perform("add", arguments: ["title": "Buy milk"]) { $0.output = ListOutput(count: 1, remaining: 1, shown: 1) }
        try await store.perform("add", arguments: ["title": "Walk the dog"]) { $0.output = ListOutput(count: 2, remaining: 2, shown: 2) }
        #expect(
            try await list.snapshot().cells() == [
                [Cell(id: "t1", title: "Buy milk", done: false), Cell(id: "t2", title: "Walk the dog", done: false)]
            ])

        // A cell by its identifier: t1 is done, and moves to the `done` section.
        try await store.perform("toggle", arguments: ["id": "t1"]) { $0.output.remaining = 1 }
        let toggled = try await list.snapshot()
        #expect(toggled.sections.map(\.id) == ["todo", "done"])
        #expect(try toggled.cells() == [[Cell(id: "t2", title: "Walk the dog", done: false)], [Cell(id: "t1", title: "Buy milk", done: true)]])

        try await store.setInput(members: ["showDone": false]) {
            $0.input.showDone = false
            $0.output.shown = 1
        }
        #expect(try await list.snapshot().itemIDs == [["t2"]])
        try await store.setInput(members: ["showDone": true]) {
            $0.input.showDone = true
            $0.output.shown = 2
        }
        try await store.setInput(members: ["query": "MILK"]) {
            $0.input.query = "MILK"
            $0.output.shown = 1
        }
        #expect(try await list.snapshot().itemIDs == [["t1"]])

        // A cell by its position in the snapshot shown (filtered): the first of its first section.
        try await store.perform("delete", arguments: ["section": 0, "item": 0]) { $0.output = ListOutput(count: 1, remaining: 1, shown: 0) }
        #expect(try await list.snapshot().sections.isEmpty)
        try await store.finish()
    }
}

@Test("Clearing removes the to-dos done: the snapshot's changes since the last read delete them", arguments: TestMode.allCases)
func clearsDone(mode: TestMode) async throws {
    try await TestServer.todo().test(mode) { client in
        let list = try await client.createSession().list
        for title in ["Buy milk", "Walk the dog", "Water the plants"] {
            try await list.perform("add", arguments: ["title": title])
        }
        try await list.perform("toggle", arguments: ["id": "t1"])
        try await list.perform("toggle", arguments: ["id": "t3"])
        let before = try await list.snapshot()
        #expect(before.itemIDs == [["t2"], ["t1", "t3"]])

        let cleared = try await list.perform("clearDone").state
        #expect(cleared.output == ListOutput(count: 1, remaining: 1, shown: 1))
        guard case .changes(let changes) = try await list.changes(since: before.version, wait: .zero) else {
            Issue.record("The changes since the last read were expected, not the whole snapshot.")
            return
        }
        #expect(changes.deletedSections.map(\.id) == ["done"])
        #expect(try before.applying(changes).itemIDs == [["t2"]])
    }
}

@Test("Each session has its own to-dos", arguments: TestMode.allCases)
func sessionsAreApart(mode: TestMode) async throws {
    try await TestServer.todo().test(mode) { client in
        try await client.createSession().list.perform("add", arguments: ["title": "Buy milk"])
        let other = try await client.createSession().list
        #expect(try await other.state().output == ListOutput())
        #expect(try await other.snapshot().sections.isEmpty)
    }
}

@Test("Selecting a to-do pushes its detail, which shows it", arguments: TestMode.allCases)
func selectOpensTheDetail(mode: TestMode) async throws {
    try await TestServer.todo().test(mode) { client in
        let session = try await client.createSession()
        try await session.list.perform("add", arguments: ["title": "Buy milk"])
        try await session.list.perform("add", arguments: ["title": "Walk the dog"])
        _ = try await session.list.state { $0.isLoaded }
        let store = try await SceneStore(session.list)
        try await store.perform("select", arguments: ["section": 0, "item": 1], navigation: ExpectedNavigation(stack: ["todos", "todo/t2"])) { _ in }
        #expect(try await session.detail("t2").state().output == DetailOutput(id: "t2", title: "Walk the dog", done: false, exists: true))
        try await store.finish()
    }
}
