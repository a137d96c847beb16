import MVVMServer

extension DocumentationExamples {
    /// A book of the library.
    struct Book: Codable, Sendable, Equatable {
        var id: Int
        var title: String
        var author: String
        var shelf: String
    }

    /// The library's catalogue: a service the whole app shares, found in `DependencyValues`.
    protocol Library: Sendable {
        func books() async throws -> [Book]
        func reviews(of id: Int) async throws -> [String]
    }

    /// The books the app ships with; a test gives the app a library of its own.
    struct BundledLibrary: Library {
        var shelved = [
            Book(id: 1, title: "Dune", author: "Frank Herbert", shelf: "fiction"),
            Book(id: 2, title: "Solaris", author: "Stanisław Lem", shelf: "fiction"),
            Book(id: 3, title: "The Selfish Gene", author: "Richard Dawkins", shelf: "science"),
        ]

        func books() async throws -> [Book] {
            shelved
        }

        func reviews(of id: Int) async throws -> [String] {
            id == 1 ? ["A classic."] : []
        }
    }

    /// The key of the library in `DependencyValues`.
    enum LibraryKey: DependencyKey {
        static let defaultValue: any Library = BundledLibrary()
    }
}

extension DependencyValues {
    /// The library the scenes read from.
    var library: any DocumentationExamples.Library {
        get { self[DocumentationExamples.LibraryKey.self] }
        set { self[DocumentationExamples.LibraryKey.self] = newValue }
    }
}
