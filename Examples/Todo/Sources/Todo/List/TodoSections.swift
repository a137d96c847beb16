import MVVMServer

/// How the list shows to-dos: a section `todo` of those not done, then a section `done`, each
/// in the order the to-dos were added and only when it has any; each to-do a `todo` cell with
/// its `title` and `done`.
enum TodoSections {
    static func snapshot(of todos: [TodoItem]) -> Snapshot {
        let sections = [
            Snapshot.Section(id: "todo", items: todos.filter { !$0.done }.map(cell)),
            Snapshot.Section(id: "done", items: todos.filter(\.done).map(cell)),
        ]
        // Identifiers are unique within a session's items, so the snapshot is always made.
        return (try? Snapshot(sections: sections.filter { !$0.items.isEmpty })) ?? Snapshot()
    }

    static func cell(_ todo: TodoItem) -> Snapshot.Item {
        Snapshot.Item(id: todo.id, cell: "todo", fields: ["title": .string(todo.title), "done": .bool(todo.done)])
    }
}

/// What a to-do's cell shows, beside its `id` and `cell` (`todo`): the contract's type of the
/// list's items.
struct TodoCell: Codable, Sendable {
    var title: String
    var done: Bool
}
