/// A Star Wars film.
public struct Film: Sendable, Equatable, Codable {
    /// SWAPI's id.
    public let id: Int
    /// The title, e.g. "A New Hope".
    public let title: String
    /// The episode number.
    public let episode: Int
    /// The director.
    public let director: String
    /// The producers.
    public let producer: String
    /// The release date, `YYYY-MM-DD`.
    public let releaseDate: String
    /// The opening crawl.
    public let openingCrawl: String
    /// The ids of its characters.
    public let characterIDs: [Int]

    /// The trilogy: `prequel` (1–3), `original` (4–6) or `sequel` (7–9).
    public var trilogy: String {
        switch episode {
        case ...3: "prequel"
        case 4...6: "original"
        default: "sequel"
        }
    }
}

/// A character.
public struct Person: Sendable, Equatable, Codable {
    /// SWAPI's id.
    public let id: Int
    /// The name.
    public let name: String
    /// Height in centimetres, as SWAPI writes it.
    public let height: String
    /// Mass in kilograms, as SWAPI writes it.
    public let mass: String
    /// Hair colour.
    public let hairColor: String
    /// Skin colour.
    public let skinColor: String
    /// Eye colour.
    public let eyeColor: String
    /// Birth year, e.g. "19BBY".
    public let birthYear: String
    /// Gender.
    public let gender: String
    /// The homeworld's id.
    public let homeworldID: Int?
    /// The ids of the films the person appears in.
    public let filmIDs: [Int]
}

/// A planet.
public struct Planet: Sendable, Equatable, Codable {
    /// SWAPI's id.
    public let id: Int
    /// The name.
    public let name: String
    /// The climate.
    public let climate: String
    /// The terrain.
    public let terrain: String
    /// The population, as SWAPI writes it.
    public let population: String
}

/// SWAPI's JSON records (decoded with snake_case keys) and how they become models.
enum SwapiRecords {
    struct Page<Record: Decodable & Sendable>: Decodable, Sendable {
        let next: String?
        let results: [Record]
    }

    struct FilmRecord: Decodable, Sendable {
        let title: String
        let episodeId: Int
        let openingCrawl: String
        let director: String
        let producer: String
        let releaseDate: String
        let characters: [String]
        let url: String

        var model: Film {
            Film(
                id: SwapiRecords.id(url) ?? 0, title: title, episode: episodeId, director: director, producer: producer,
                releaseDate: releaseDate, openingCrawl: openingCrawl, characterIDs: characters.compactMap(SwapiRecords.id))
        }
    }

    struct PersonRecord: Decodable, Sendable {
        let name: String
        let height: String
        let mass: String
        let hairColor: String
        let skinColor: String
        let eyeColor: String
        let birthYear: String
        let gender: String
        let homeworld: String?
        let films: [String]
        let url: String

        var model: Person {
            Person(
                id: SwapiRecords.id(url) ?? 0, name: name, height: height, mass: mass, hairColor: hairColor, skinColor: skinColor,
                eyeColor: eyeColor, birthYear: birthYear, gender: gender, homeworldID: homeworld.flatMap(SwapiRecords.id),
                filmIDs: films.compactMap(SwapiRecords.id))
        }
    }

    struct PlanetRecord: Decodable, Sendable {
        let name: String
        let climate: String
        let terrain: String
        let population: String
        let url: String

        var model: Planet {
            Planet(id: SwapiRecords.id(url) ?? 0, name: name, climate: climate, terrain: terrain, population: population)
        }
    }

    /// The id at the end of a SWAPI URL, e.g. 1 for `https://swapi.dev/api/people/1/`.
    static func id(_ url: String) -> Int? {
        url.split(separator: "/").last.flatMap { Int($0) }
    }
}
