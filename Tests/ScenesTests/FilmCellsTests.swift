import Testing

@testable import Scenes

@Suite("The films' cells, made once per list and shared by the films scenes")
struct FilmCellsTests {
    @Test("Each list gets its own films' cells, in its order, whichever list came before")
    func cellsFollowTheList() {
        let films = SwapiSamples.films
        let others = Array(films.reversed().dropLast())
        for list in [films, others, films, Array(films), others] {
            #expect(FilmCells.of(list) == list.map(FilmCells.cell))
        }
        #expect(FilmCells.of(films).map(\.id) == ["1", "2", "4", "5", "7"])
    }
}
