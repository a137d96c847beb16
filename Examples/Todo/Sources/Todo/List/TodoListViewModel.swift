import MVVMServer

/// The root scene (`todos`): the session's to-dos as a diffable snapshot (``TodoSections``),
/// filtered by the input, with a count of what is left. Bound to the shared ``Items``: a change
/// made anywhere in the session (a rename in a detail) republishes it by itself.
final class TodoListViewModel: ViewModel, SnapshotProviding {
    /// The longest `query` taken.
    static let maximumQueryLength = 100

    struct Input: ViewModelInput {
        /// Shows only the to-dos whose title contains it (ignoring case); all when empty.
        var query = ""
        /// Whether the `done` section is shown.
        var showDone = true
        init() {}
    }

    struct Output: Codable, Sendable, Equatable {
        /// To-dos in all.
        var count = 0
        /// To-dos not done.
        var remaining = 0
        /// To-dos in the snapshot.
        var shown = 0
    }

    var input = Input()
    private(set) var output = Output()
    private(set) var snapshot = Snapshot()
    /// A to-do per item.
    static let cells = [SnapshotCell("todo", content: TodoCell.self)]
    private let items: Items
    private let coordinator: TodoListCoordinator

    init(items: Items, coordinator: TodoListCoordinator, scope: ViewModelScope) {
        self.items = items
        self.coordinator = coordinator
        scope.bind(items.todos) { [unowned self] _ in update() }
    }

    /// Refuses a query longer than ``maximumQueryLength``.
    func validate(_ input: Input) throws {
        if input.query.count > Self.maximumQueryLength {
            throw Refusal.input("query", "must be at most \(Self.maximumQueryLength) characters")
        }
    }

    func inputDidChange() {
        update()
    }

    func perform(_ action: Action) async throws {
        switch action {
        case .add(let title):
            guard !title.allSatisfy(\.isWhitespace) else { throw Refusal.argument("title", "must not be empty") }
            items.add(title: title)
        case .toggle(let reference):
            items.toggle(id: try id(at: reference))
        case .delete(let reference):
            items.delete(id: try id(at: reference))
        case .select(let reference):
            try coordinator.showTodo(id: try id(at: reference))
        case .clearDone:
            guard items.todos.value.contains(where: \.done) else { throw Refusal.action("No to-do is done.") }
            items.clearDone()
        }
    }

    /// The identifier of the to-do a cell action addresses, in the snapshot shown.
    private func id(at reference: ItemReference) throws -> String {
        guard let item = snapshot.item(at: reference) else { throw ActionError.itemNotFound(String(describing: reference)) }
        return item.id
    }

    private func update() {
        let todos = items.todos.value
        let query = input.query.lowercased()
        let shown = todos.filter { todo in
            (input.showDone || !todo.done) && (query.isEmpty || todo.title.lowercased().contains(query))
        }
        snapshot = TodoSections.snapshot(of: shown)
        output = Output(count: todos.count, remaining: todos.count(where: { !$0.done }), shown: shown.count)
    }
}
