import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport

extension APIFixtures {
    /// A shelf of books, published as a snapshot with one section, `books`, of `book` cells.
    final class Shelf: ViewModel, SnapshotProviding {
        struct Output: Codable, Sendable, Equatable {
            var count = 2
        }

        enum Action: ViewModelAction {
            case add(id: String, title: String)
            case remove(id: String)
            case rename(id: String, title: String)
            case moveToFront(id: String)

            static let names = ["add", "remove", "rename", "moveToFront"]
        }

        private struct Book: Encodable {
            let id: String
            var title: String
        }

        private struct Cell: Encodable {
            let title: String
        }

        var input = EmptyInput()
        private(set) var output = Output()
        private var books = [Book(id: "1", title: "Dune"), Book(id: "2", title: "Emma")]

        var snapshot: Snapshot {
            let items = books.compactMap { try? Snapshot.Item(id: $0.id, cell: "book", content: Cell(title: $0.title)) }
            return (try? Snapshot(sections: [Snapshot.Section(id: "books", items: items)])) ?? Snapshot()
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .add(let id, let title):
                books.append(Book(id: id, title: title))
            case .remove(let id):
                books.removeAll { $0.id == id }
            case .rename(let id, let title):
                if let index = books.firstIndex(where: { $0.id == id }) { books[index].title = title }
            case .moveToFront(let id):
                if let index = books.firstIndex(where: { $0.id == id }) { books.insert(books.remove(at: index), at: 0) }
            }
            output.count = books.count
        }
    }
}
