import MVVMServer
import Synchronization

/// What a film's cell shows, beside its `id` and `cell` (`film`): the contract's type of the
/// films scene's items.
public struct FilmCell: Codable, Sendable, Equatable {
    /// The film's title.
    public var title: String
    /// Its episode number.
    public var episode: Int
    /// Its release date, as SWAPI writes it (`1977-05-25`).
    public var releaseDate: String
    /// Its director.
    public var director: String
}

/// Each film's cell, made once per list of films and shared by the films scenes of every
/// session: the service keeps the list it read, so a new session's scene gets the very same
/// array and finds its cells made. A different list (another service, a test's) makes its own.
enum FilmCells {
    private static let latest = Mutex<(films: [Film], cells: [Snapshot.Item])?>(nil)

    /// The cells of `films`, in the same order.
    static func of(_ films: [Film]) -> [Snapshot.Item] {
        if let kept = latest.withLock({ $0 }) {
            // The same array (shared storage): nothing to compare.
            if sharesStorage(kept.films, films) { return kept.cells }
            if kept.films == films {
                // An equal list read by another load: kept, so that the next call finds it.
                latest.withLock { $0 = (films, kept.cells) }
                return kept.cells
            }
        }
        let cells = films.map(cell)
        latest.withLock { $0 = (films, cells) }
        return cells
    }

    private static func sharesStorage(_ left: [Film], _ right: [Film]) -> Bool {
        left.count == right.count
            && left.withUnsafeBufferPointer { left in
                right.withUnsafeBufferPointer { left.baseAddress == $0.baseAddress }
            }
    }

    /// One film's cell: its title, episode, release date and director.
    static func cell(_ film: Film) -> Snapshot.Item {
        Snapshot.Item(
            id: String(film.id), cell: "film",
            fields: [
                "title": .string(film.title),
                "episode": .number(Double(film.episode)),
                "releaseDate": .string(film.releaseDate),
                "director": .string(film.director),
            ])
    }
}
