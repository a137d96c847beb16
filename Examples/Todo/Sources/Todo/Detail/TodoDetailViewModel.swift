import MVVMServer

/// One to-do's detail (`todo/<id>`), bound to the shared ``Items``: `rename` and `toggle`
/// change the to-do there (and the list follows by itself), `delete` removes it and goes back
/// to the list. A to-do that is gone (deleted from the list) shows `exists: false`, and its
/// actions are refused.
final class TodoDetailViewModel: ViewModel {
    struct Output: Codable, Sendable, Equatable {
        var id: String
        var title = ""
        var done = false
        /// Whether the to-do is in the session's items.
        var exists = false
    }

    /// Decoded by the enum's synthesized `Decodable`: `rename` from `{"title": "..."}`.
    enum Action: ViewModelAction {
        /// Gives the to-do a new title (refused when blank).
        case rename(title: String)
        /// Marks the to-do done, or not done again.
        case toggle
        /// Removes the to-do and closes the detail.
        case delete
    }

    var input = EmptyInput()
    private(set) var output: Output
    private let items: Items
    private let coordinator: TodoDetailCoordinator

    init(id: String, items: Items, coordinator: TodoDetailCoordinator, scope: ViewModelScope) {
        output = Output(id: id)
        self.items = items
        self.coordinator = coordinator
        scope.bind(items.todos) { [unowned self] todos in
            let todo = todos.first { $0.id == output.id }
            output.title = todo?.title ?? ""
            output.done = todo?.done ?? false
            output.exists = todo != nil
        }
    }

    func perform(_ action: Action) async throws {
        guard output.exists else { throw Refusal.action("The to-do \(output.id) no longer exists.") }
        switch action {
        case .rename(let title):
            guard !title.allSatisfy(\.isWhitespace) else { throw Refusal.argument("title", "must not be empty") }
            items.rename(id: output.id, to: title)
        case .toggle:
            items.toggle(id: output.id)
        case .delete:
            items.delete(id: output.id)
            try coordinator.close()
        }
    }
}
