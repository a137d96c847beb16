import MVVMServer

extension DocumentationExamples {
    /// One book: its details and reviews load from the library; the reader keeps a note,
    /// rates the book and borrows it.
    final class BookViewModel: ViewModel {
        struct Input: ViewModelInput {
            var note = ""
            init() {}
        }

        struct Output: Codable, Sendable, Equatable {
            var id = 0
            var title = ""
            var author = ""
            var reviews: [String] = []
            var stars: Int?
            var lateFee: Money?  // describes its own JSON: <doc:YourAppsContract>
        }

        enum Action: ViewModelAction {
            case rate(stars: Int)
            case borrow
            case refreshReviews
        }

        var input = Input()
        private(set) var output = Output()
        private let library: any Library
        private let scope: ViewModelScope
        private let savedState: SavedStateHandle
        private let loans: Loans

        init(id: Int, library: any Library, scope: ViewModelScope) throws {
            self.library = library
            self.scope = scope
            savedState = scope.savedState
            loans = try scope.viewModel(Loans.self, key: "loans")
            output.id = id
            output.stars = savedState["stars"]
        }

        func validate(_ input: Input) throws {
            if input.note.count > 280 { throw Refusal.input("note", "must be at most 280 characters") }
        }

        func load() async throws {
            guard let book = try await library.books().first(where: { $0.id == output.id }) else {
                throw BookNotFound(id: output.id)
            }
            output.title = book.title
            output.author = book.author
            scope.publish()  // the title shows while the reviews load
            output.reviews = try await library.reviews(of: output.id)
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .rate(let stars):
                guard (1...5).contains(stars) else { throw Refusal.argument("stars", "must be from 1 to 5") }
                output.stars = stars
                savedState["stars"] = stars
            case .borrow:
                try loans.borrow(output.id)
                scope.setNeedsRefresh("loans")  // this call changed the loans' output
            case .refreshReviews:
                scope.launch { [self] in
                    do {
                        output.reviews = try await library.reviews(of: output.id)
                    } catch {
                        scope.logger.warning("The reviews did not load: \(error)")
                    }
                }
            }
        }
    }

    /// The failure of a load for a book the library does not have.
    struct BookNotFound: Error, CustomStringConvertible {
        var id: Int
        var description: String {
            "the library has no book \(id)"
        }
    }
}
