import MVVMServer

/// Makes the session's shared ``Items``, with the identifier service from the app's dependencies.
enum ItemsFactory {
    /// The store key of the shared items.
    static let key = "items"

    /// The scene: not shown, made on first use by the scenes that share it.
    static let scene = Scene(
        "items", key: key, viewModel: Items.self,
        factory: SingleViewModelFactory { extras in
            Items(scope: extras.scope, ids: extras.dependencies.todoIDs)
        })

    /// The session's shared items, made on first use.
    static func shared(in scope: ViewModelScope) throws -> Items {
        try scope.viewModel(Items.self, key: key)
    }
}
