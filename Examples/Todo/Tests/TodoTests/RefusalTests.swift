import MVVMClient
import MVVMServerTesting
import Testing

@testable import Todo

@Test(
    "The list refuses a blank title, a query too long, clearing with nothing done and a cell it does not show: each a 422, and nothing changes",
    arguments: TestMode.allCases)
func listRefusals(mode: TestMode) async throws {
    try await TestServer.todo().test(mode) { client in
        let list = try await client.createSession().list
        _ = try await list.state { $0.isLoaded }
        let store = try await SceneStore(list)
        try await store.perform("add", arguments: ["title": "Buy milk"]) { $0.output = ListOutput(count: 1, remaining: 1, shown: 1) }

        try await store.refuse("add", arguments: ["title": ""], kind: "invalid-arguments", member: "title")
        try await store.refuse("add", arguments: ["title": "  "], kind: "invalid-arguments", member: "title")
        try await store.refuse("add", kind: "invalid-arguments", member: "title")
        try await store.refuseInput(members: ["query": String(repeating: "m", count: TodoListViewModel.maximumQueryLength + 1)], member: "query")
        try await store.refuse("clearDone", kind: "action-refused")
        try await store.refuse("toggle", arguments: ["id": "t9"], kind: "invalid-arguments")
        try await store.refuse("delete", arguments: ["section": 1, "item": 0], kind: "invalid-arguments")

        #expect(try await list.snapshot().cells() == [[Cell(id: "t1", title: "Buy milk", done: false)]])
        // The longest query is taken.
        let longest = String(repeating: "m", count: TodoListViewModel.maximumQueryLength)
        try await store.setInput(members: ["query": longest]) {
            $0.input.query = longest
            $0.output.shown = 0
        }
        try await store.finish()
    }
}

@Test("The detail refuses a blank title: a 422 naming it, and the list keeps the old title", arguments: TestMode.allCases)
func detailRefusesBlankTitle(mode: TestMode) async throws {
    try await TestServer.todo().test(mode) { client in
        let session = try await client.createSession()
        try await session.list.perform("add", arguments: ["title": "Buy milk"])
        let detail = session.detail("t1")
        _ = try await detail.state { $0.isLoaded }
        let store = try await SceneStore(detail)
        try await store.refuse("rename", arguments: ["title": ""], kind: "invalid-arguments", member: "title")
        try await store.refuse("rename", kind: "invalid-arguments", member: "title")
        try await store.finish()
        #expect(try await session.list.snapshot().cells() == [[Cell(id: "t1", title: "Buy milk", done: false)]])
    }
}
