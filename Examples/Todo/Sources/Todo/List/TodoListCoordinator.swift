import MVVMServer

/// The list's flow controller: opens a to-do's detail.
struct TodoListCoordinator: Coordinator {
    let navigator: Navigator

    /// Pushes the detail of the to-do `id` (`todo/<id>`).
    func showTodo(id: String) throws {
        try navigator.push(TodoDetailFactory.key(id: id))
    }
}
