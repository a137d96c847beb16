import MVVMCore
import MVVMJSON
import MVVMSupport

extension Core {
    /// A list scene that publishes a diffable snapshot (MVVMKit's `DiffableCollectionViewViewModel`)
    /// and takes a cell interaction addressed to an item, by identifier or by position
    /// (MVVMKit's `didTapButton(at: indexPath)`).
    final class FilmListViewModel: SnapshotProviding {
        enum Action: ViewModelAction, Decodable {
            case select(item: ItemReference)

            static let names = ["select"]
        }

        struct Output: Codable, Sendable, Equatable {
            var selected: String?
        }

        /// What a cell shows.
        struct Cell: Encodable {
            var title: String
        }

        var input = EmptyInput()
        private(set) var output = Output()
        let snapshot: Snapshot

        init() throws {
            snapshot = try Snapshot(sections: [
                .init(
                    id: "original",
                    items: [
                        try .init(id: "film-4", cell: "film", content: Cell(title: "A New Hope")),
                        try .init(id: "film-5", cell: "film", content: Cell(title: "The Empire Strikes Back")),
                        try .init(id: "film-6", cell: "film", content: Cell(title: "Return of the Jedi")),
                    ]),
                .init(
                    id: "prequels",
                    items: [
                        try .init(id: "film-1", cell: "film", content: Cell(title: "The Phantom Menace"))
                    ]),
            ])
        }

        /// Makes the list; its snapshot is built in `init`, which can throw.
        static let factory = SingleViewModelFactory { _ in try FilmListViewModel() }

        func perform(_ action: Action) async throws {
            switch action {
            case .select(let reference):
                guard let item = snapshot.item(at: reference) else { throw ActionError.itemNotFound("\(reference)") }
                output.selected = item.id
            }
        }
    }
}
