import MVVMServer

/// The detail's flow controller: goes back to the list.
struct TodoDetailCoordinator: Coordinator {
    let navigator: Navigator
    /// The detail's store key.
    let key: String

    /// Pops the detail when it is the scene on top; a detail read without being shown leaves
    /// the navigation as it is.
    func close() throws {
        let state = navigator.state
        guard state.modal == nil, state.stack.count > 1, state.stack.last?.key == key else { return }
        try navigator.pop()
    }
}
