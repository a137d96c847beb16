import MVVMServer

/// Makes the list, wired to the shared items and its coordinator.
enum TodoListFactory {
    /// The root scene.
    static let scene = Scene(
        "todos", key: "todos", viewModel: TodoListViewModel.self,
        factory: SingleViewModelFactory { extras in
            TodoListViewModel(
                items: try ItemsFactory.shared(in: extras.scope),
                coordinator: TodoListCoordinator(navigator: try extras.scope.navigator()),
                scope: extras.scope)
        })
}
