import MVVMServer

/// The session's to-dos, shared by the list and the detail scenes (key `items`): their one
/// owner. The other view models follow ``todos`` (with `scope.bind`) and change it through the
/// methods here, and every change is kept in the session's saved state, so the to-dos survive
/// a restart of the app. Its own output (how many, how many left) is bound to ``todos`` too.
final class Items: ViewModel {
    struct Output: Codable, Sendable, Equatable {
        var count = 0
        var remaining = 0
    }

    var input = EmptyInput()
    private(set) var output = Output()
    /// The to-dos, in the order they were added.
    let todos: ObservableValue<[TodoItem]>
    private let savedState: SavedStateHandle
    private let ids: any TodoIDGenerator

    init(scope: ViewModelScope, ids: any TodoIDGenerator) {
        savedState = scope.savedState
        self.ids = ids
        todos = ObservableValue(scope.savedState["todos", as: [TodoItem].self] ?? [])
        scope.bind(todos) { [unowned self] todos in
            output = Output(count: todos.count, remaining: todos.count(where: { !$0.done }))
        }
    }

    /// The to-do with this identifier, if there is one.
    func todo(id: String) -> TodoItem? {
        todos.value.first { $0.id == id }
    }

    /// Adds a to-do, not done, at the end.
    func add(title: String) {
        let todo = TodoItem(id: ids.makeID(), title: title)
        change { $0.append(todo) }
    }

    /// Marks a to-do done, or not done again.
    func toggle(id: String) {
        change { todos in
            if let index = todos.firstIndex(where: { $0.id == id }) { todos[index].done.toggle() }
        }
    }

    /// Gives a to-do a new title.
    func rename(id: String, to title: String) {
        change { todos in
            if let index = todos.firstIndex(where: { $0.id == id }) { todos[index].title = title }
        }
    }

    /// Removes a to-do.
    func delete(id: String) {
        change { $0.removeAll { $0.id == id } }
    }

    /// Removes every to-do that is done.
    func clearDone() {
        change { $0.removeAll(where: \.done) }
    }

    /// Changes the to-dos, saves them, and tells the view models bound to them.
    private func change(_ body: (inout [TodoItem]) -> Void) {
        var changed = todos.value
        body(&changed)
        guard changed != todos.value else { return }
        savedState["todos"] = changed
        todos.value = changed
    }
}
