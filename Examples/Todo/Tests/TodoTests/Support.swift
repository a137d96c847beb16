import MVVMClient
import MVVMServerTesting
import Synchronization

@testable import Todo

typealias ListInput = TodoListViewModel.Input
typealias ListOutput = TodoListViewModel.Output
typealias DetailInput = TodoDetailViewModel.Input
typealias DetailOutput = TodoDetailViewModel.Output

/// Identifiers a test knows in advance: `t1`, `t2`, … in the order the to-dos are added.
final class SequentialIDs: TodoIDGenerator {
    private let last = Mutex(0)

    func makeID() -> String {
        let number = last.withLock { count in
            count += 1
            return count
        }
        return "t\(number)"
    }
}

/// A to-do's cell as a client decodes it from the list's snapshot.
struct Cell: Decodable, Equatable {
    var id: String
    var title: String
    var done: Bool
}

extension TestServer {
    /// The to-do app, its identifiers handed out by a new ``SequentialIDs``.
    static func todo() -> TestServer {
        TestServer(catalogue: TodoApp.catalogue, dependencies: TodoApp.dependencies(ids: SequentialIDs()))
    }
}

extension SessionClient {
    /// The list, the session's root.
    var list: SceneClient<ListInput, ListOutput> {
        scene("todos", input: ListInput.self, output: ListOutput.self)
    }

    /// The detail of the to-do `id`.
    func detail(_ id: String) -> SceneClient<DetailInput, DetailOutput> {
        scene("todo/\(id)", input: DetailInput.self, output: DetailOutput.self)
    }
}

extension SceneSnapshot {
    /// The cells, section by section.
    func cells() throws -> [[Cell]] {
        try sections.map { section in try section.items.map { try $0.decode(as: Cell.self) } }
    }
}
