import MVVMClient
import MVVMServerTesting
import Testing

@testable import Todo

@Test("A rename in the detail changes the shared items, and the list republishes by itself", arguments: TestMode.allCases)
func renameRepublishesTheList(mode: TestMode) async throws {
    try await TestServer.todo().test(mode) { client in
        let session = try await client.createSession()
        let list = session.list
        try await list.perform("add", arguments: ["title": "Buy milk"])
        try await list.perform("select", arguments: ["id": "t1"])
        let before = try await list.snapshot()
        let listBefore = try await list.state()

        // Waits for the list's next snapshot: only the detail's rename can bring it.
        async let next = list.changes(since: before.version, wait: .seconds(10))
        let renamed = try await session.detail("t1").perform("rename", arguments: ["title": "Buy oat milk"]).state
        #expect(renamed.output == DetailOutput(id: "t1", title: "Buy oat milk", done: false, exists: true))

        let after: SceneSnapshot
        switch try await next {
        case .changes(let changes):
            #expect(changes.changedItems.map(\.id) == ["t1"])
            after = try before.applying(changes)
        case .snapshot(let snapshot):
            after = snapshot
        }
        #expect(try after.cells() == [[Cell(id: "t1", title: "Buy oat milk", done: false)]])
        #expect(try await list.snapshot().cells() == after.cells())
        #expect(try await list.state().version > listBefore.version)

        // A toggle in the detail: the list's count of what is left follows too.
        try await session.detail("t1").perform("toggle")
        #expect(try await list.state().output == ListOutput(count: 1, remaining: 0, shown: 1))
        #expect(try await list.snapshot().cells() == [[Cell(id: "t1", title: "Buy oat milk", done: true)]])
    }
}

@Test("Deleting in the detail goes back to the list, which no longer shows the to-do", arguments: TestMode.allCases)
func deleteGoesBack(mode: TestMode) async throws {
    try await TestServer.todo().test(mode) { client in
        let session = try await client.createSession()
        try await session.list.perform("add", arguments: ["title": "Buy milk"])
        try await session.list.perform("add", arguments: ["title": "Walk the dog"])
        try await session.list.perform("select", arguments: ["id": "t1"])

        let outcome = try await session.detail("t1").perform("delete")
        #expect(outcome.navigation?.stack.map(\.key) == ["todos"])
        #expect(outcome.state.output.exists == false)
        #expect(try await session.list.snapshot().itemIDs == [["t2"]])
        #expect(try await session.list.state().output == ListOutput(count: 1, remaining: 1, shown: 1))
    }
}

@Test("A detail whose to-do was deleted from the list shows it is gone, and refuses its actions", arguments: TestMode.allCases)
func detailOfDeletedTodo(mode: TestMode) async throws {
    try await TestServer.todo().test(mode) { client in
        let session = try await client.createSession()
        try await session.list.perform("add", arguments: ["title": "Buy milk"])
        try await session.list.perform("select", arguments: ["id": "t1"])
        let detail = session.detail("t1")
        _ = try await detail.state { $0.isLoaded }
        let store = try await SceneStore(detail)

        try await session.list.perform("delete", arguments: ["id": "t1"])
        try await store.receive { $0.output = DetailOutput(id: "t1", title: "", done: false, exists: false) }
        try await store.refuse("rename", arguments: ["title": "Buy oat milk"], kind: "action-refused")
        try await store.refuse("toggle", kind: "action-refused")
        try await store.finish()
        #expect(try await session.navigation().stack.map(\.key) == ["todos", "todo/t1"])
    }
}
