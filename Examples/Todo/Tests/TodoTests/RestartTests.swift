import MVVMClient
import MVVMServerTesting
import Testing

@testable import Todo

@Test("The to-dos are saved: after a restart the session has them, its list and its detail as they were", arguments: TestMode.allCases)
func todosSurviveRestart(mode: TestMode) async throws {
    try await TestServer.todo().testRestart(mode) { client in
        let session = try await client.createSession()
        try await session.list.perform("add", arguments: ["title": "Buy milk"])
        try await session.list.perform("add", arguments: ["title": "Walk the dog"])
        try await session.list.perform("toggle", arguments: ["id": "t2"])
        try await session.list.perform("select", arguments: ["id": "t1"])
        try await session.detail("t1").perform("rename", arguments: ["title": "Buy oat milk"])
        return session.id
    } after: { client, id in
        let session = client.session(id: id)
        #expect(try await session.navigation().stack.map(\.key) == ["todos", "todo/t1"])
        let list = try await session.list.state { $0.isLoaded }
        #expect(list.output == ListOutput(count: 2, remaining: 1, shown: 2))
        #expect(
            try await session.list.snapshot().cells() == [
                [Cell(id: "t1", title: "Buy oat milk", done: false)],
                [Cell(id: "t2", title: "Walk the dog", done: true)],
            ])
        #expect(try await session.detail("t1").state().output == DetailOutput(id: "t1", title: "Buy oat milk", done: false, exists: true))

        // The restored items go on: a new to-do is added after them.
        try await session.list.perform("add", arguments: ["title": "Water the plants"])
        #expect(try await session.list.snapshot().itemIDs == [["t1", "t3"], ["t2"]])
    }
}
