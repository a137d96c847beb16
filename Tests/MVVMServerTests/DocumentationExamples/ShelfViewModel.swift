import Foundation
import MVVMServer

extension DocumentationExamples {
    /// The root scene: the books, a section per shelf, filtered by title; a borrowed book's
    /// cell says so. `open` shows a book.
    final class ShelfViewModel: ViewModel, SnapshotProviding {
        struct Input: ViewModelInput {
            var filter = ""
            init() {}
        }

        struct Output: Codable, Sendable, Equatable {
            var shown = 0
        }

        enum Action: ViewModelAction {
            case open(ItemReference)
        }

        var input = Input()
        private(set) var output = Output()
        private(set) var snapshot = Snapshot()
        static let cells = [SnapshotCell("book", content: BookCell.self)]

        /// What a book's cell shows, beside its `id` and `cell`.
        struct BookCell: Codable, Sendable {
            var title: String
            var author: String
            var borrowed: Bool
        }
        private var books: [Book] = []
        private var borrowed: [Int] = []
        private let library: any Library
        private let coordinator: ShelfCoordinator

        init(library: any Library, coordinator: ShelfCoordinator, scope: ViewModelScope) throws {
            self.library = library
            self.coordinator = coordinator
            let loans = try scope.viewModel(Loans.self, key: "loans")
            scope.bind(loans.borrowed) { [unowned self] ids in
                borrowed = ids
                update()
            }
        }

        func load() async throws {
            books = try await library.books()
            update()
        }

        func inputDidChange() {
            update()
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .open(let reference):
                guard let item = snapshot.item(at: reference), let id = Int(item.id) else {
                    throw ActionError.itemNotFound(String(describing: reference))
                }
                try coordinator.showBook(id: id)
            }
        }

        private func update() {
            let shown = books.filter { input.filter.isEmpty || $0.title.range(of: input.filter, options: .caseInsensitive) != nil }
            var shelves: [String] = []
            var items: [String: [Snapshot.Item]] = [:]
            for book in shown {
                if items[book.shelf] == nil { shelves.append(book.shelf) }
                items[book.shelf, default: []].append(
                    Snapshot.Item(
                        id: String(book.id), cell: "book",
                        fields: [
                            "title": .string(book.title),
                            "author": .string(book.author),
                            "borrowed": .bool(borrowed.contains(book.id)),
                        ]))
            }
            snapshot = (try? Snapshot(sections: shelves.map { Snapshot.Section(id: $0, items: items[$0] ?? []) })) ?? Snapshot()
            output.shown = shown.count
        }
    }

    /// The shelf's coordinator: it names the next scene by key, and the navigator shows it.
    struct ShelfCoordinator: Coordinator {
        let navigator: Navigator

        func showBook(id: Int) throws {
            try navigator.push("book/\(id)")
        }
    }
}
