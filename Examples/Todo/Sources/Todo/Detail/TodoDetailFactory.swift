import MVVMServer

/// Makes a to-do's detail, wired to the shared items and its coordinator.
enum TodoDetailFactory {
    /// The scene, one view model per to-do.
    static let scene = Scene(
        "todo", key: "todo/{id}", viewModel: TodoDetailViewModel.self,
        factory: SingleViewModelFactory { extras in
            TodoDetailViewModel(
                id: extras.parameters["id"] ?? "",
                items: try ItemsFactory.shared(in: extras.scope),
                coordinator: TodoDetailCoordinator(navigator: try extras.scope.navigator(), key: extras.key),
                scope: extras.scope)
        })

    /// The store key of the detail of the to-do `id`.
    static func key(id: String) -> String {
        "todo/\(id)"
    }
}
