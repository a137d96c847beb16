import MVVMCore
import MVVMJSON
import MVVMSupport

extension Core {
    /// A parameterised view model: one per film, under keys such as `film/2`.
    final class FilmViewModel: ViewModel {
        struct Output: Codable, Sendable, Equatable {
            var id: Int
            var title: String
        }

        static let titles = [1: "A New Hope", 2: "The Empire Strikes Back", 3: "Return of the Jedi"]

        var input = EmptyInput()
        let output: Output

        init(id: Int) {
            output = Output(id: id, title: Self.titles[id] ?? "unknown")
        }

        /// Why the factory could not make a film.
        struct BadKey: Error, Equatable {
            let key: String
        }

        /// Makes the film named by the key's last segment (`film/2`), or by the `id` parameter
        /// that a scene's key pattern (`film/{id}`) parsed from it.
        static let factory = SingleViewModelFactory<FilmViewModel> { extras in
            guard let id = extras.intParameter("id") ?? extras.key.split(separator: "/").last.flatMap({ Int($0) }) else {
                throw BadKey(key: extras.key)
            }
            return FilmViewModel(id: id)
        }
    }
}
