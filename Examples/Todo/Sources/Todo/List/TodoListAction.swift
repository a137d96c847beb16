import MVVMServer

extension TodoListViewModel {
    /// The list's actions. The cell actions name their to-do as a cell does, by `{"id"}` or by
    /// `{"section", "item"}` in the snapshot shown.
    enum Action: ViewModelAction {
        /// Adds a to-do titled `title` (refused when blank).
        case add(title: String)
        /// Marks a to-do done, or not done again.
        case toggle(ItemReference)
        /// Removes a to-do.
        case delete(ItemReference)
        /// Opens a to-do's detail.
        case select(ItemReference)
        /// Removes the to-dos done (refused when none is).
        case clearDone
    }
}
