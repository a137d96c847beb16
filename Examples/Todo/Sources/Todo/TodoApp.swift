import MVVMServer

/// A to-do list, one per session: the list (`todos`, the root), a to-do's detail
/// (`todo/<id>`), and the session's shared items (`items`) they are both bound to, kept in the
/// session's saved state.
@main
struct TodoApp {
    static let catalogue = SceneCatalogue(
        scenes: [TodoListFactory.scene, TodoDetailFactory.scene, ItemsFactory.scene],
        rootKey: "todos")

    /// The services: what makes the identifiers of new to-dos (random ones, unless a test
    /// hands out its own).
    static func dependencies(ids: any TodoIDGenerator = RandomTodoIDs()) -> DependencyValues {
        var dependencies = DependencyValues()
        dependencies.todoIDs = ids
        return dependencies
    }

    /// Serves the to-do list with the settings every app takes (`--help` lists them): on
    /// http://127.0.0.1:8080, its sessions saved in ~/.local/state/todo/state.sqlite (under
    /// `$XDG_STATE_HOME` when set), until SIGINT or SIGTERM.
    static func main() async {
        await Application.main(name: "todo", catalogue: catalogue, dependencies: dependencies())
    }
}
