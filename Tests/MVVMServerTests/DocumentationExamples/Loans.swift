import MVVMServer

extension DocumentationExamples {
    /// The session's loans: state that several scenes of one session share. No scene shows
    /// it; the others reach it with `scope.viewModel(Loans.self, key: "loans")`. The books
    /// borrowed are kept in saved state, so they survive a restart.
    final class Loans: ViewModel {
        struct Output: Codable, Sendable, Equatable {
            var count = 0
        }

        enum Action: ViewModelAction {
            case giveBack(id: Int)
        }

        var input = EmptyInput()
        private(set) var output = Output()
        let borrowed: ObservableValue<[Int]>
        private let savedState: SavedStateHandle

        init(savedState: SavedStateHandle) {
            self.savedState = savedState
            borrowed = ObservableValue(savedState["borrowed"] ?? [])
            output.count = borrowed.value.count
        }

        /// Borrows a book; refused when it is borrowed already.
        func borrow(_ id: Int) throws {
            guard !borrowed.value.contains(id) else { throw Refusal.action("The book is borrowed already.") }
            borrowed.value.append(id)
            didChange()
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .giveBack(let id):
                guard let index = borrowed.value.firstIndex(of: id) else { throw Refusal.argument("id", "is not a borrowed book") }
                borrowed.value.remove(at: index)
                didChange()
            }
        }

        private func didChange() {
            output.count = borrowed.value.count
            savedState["borrowed"] = borrowed.value
        }
    }
}
