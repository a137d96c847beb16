@testable import Scenes

/// A small, hand-picked SWAPI data set for scene tests: five films across the three
/// trilogies, a few people (one with a diacritic in her name) and their homeworlds.
enum SwapiSamples {
    /// Episodes 4, 5, 1, 2 and 7, in SWAPI's id order.
    static let films: [Film] = [
        Film(
            id: 1, title: "A New Hope", episode: 4, director: "George Lucas", producer: "Gary Kurtz",
            releaseDate: "1977-05-25", openingCrawl: "It is a period of civil war.", characterIDs: [1, 2, 5]),
        Film(
            id: 2, title: "The Empire Strikes Back", episode: 5, director: "Irvin Kershner", producer: "Gary Kurtz",
            releaseDate: "1980-05-17", openingCrawl: "It is a dark time for the Rebellion.", characterIDs: [1, 2, 5]),
        Film(
            id: 4, title: "The Phantom Menace", episode: 1, director: "George Lucas", producer: "Rick McCallum",
            releaseDate: "1999-05-19", openingCrawl: "Turmoil has engulfed the Galactic Republic.", characterIDs: [35, 11, 2]),
        Film(
            id: 5, title: "Attack of the Clones", episode: 2, director: "George Lucas", producer: "Rick McCallum",
            releaseDate: "2002-05-16", openingCrawl: "There is unrest in the Galactic Senate.", characterIDs: [11, 35]),
        Film(
            id: 7, title: "The Force Awakens", episode: 7, director: "J. J. Abrams", producer: "Kathleen Kennedy",
            releaseDate: "2015-12-18", openingCrawl: "Luke Skywalker has vanished.", characterIDs: [1, 5, 99]),
    ]

    /// Luke, C-3PO, Leia, Anakin and Padmé (id 99, in The Force Awakens, is nobody we know).
    static let people: [Person] = [
        person(1, "Luke Skywalker", homeworld: 1, films: [1, 2, 7]),
        person(2, "C-3PO", homeworld: 1, films: [1, 2, 4]),
        person(5, "Leia Organa", homeworld: 2, films: [1, 2, 7]),
        person(11, "Anakin Skywalker", homeworld: 1, films: [4, 5]),
        person(35, "Padmé Amidala", homeworld: 8, films: [4, 5]),
    ]

    /// Tatooine, Alderaan and Naboo.
    static let planets: [Planet] = [
        Planet(id: 1, name: "Tatooine", climate: "arid", terrain: "desert", population: "200000"),
        Planet(id: 2, name: "Alderaan", climate: "temperate", terrain: "grasslands, mountains", population: "2000000000"),
        Planet(id: 8, name: "Naboo", climate: "temperate", terrain: "grassy hills, swamps, forests, mountains", population: "4500000000"),
    ]

    private static func person(_ id: Int, _ name: String, homeworld: Int, films: [Int]) -> Person {
        Person(
            id: id, name: name, height: "172", mass: "77", hairColor: "brown", skinColor: "fair", eyeColor: "brown",
            birthYear: "19BBY", gender: "n/a", homeworldID: homeworld, filmIDs: films)
    }
}
