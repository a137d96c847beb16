import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// Finding a key's scene: the first scene, in declaration order, whose key pattern matches.
    @Suite("Scene catalogue")
    struct SceneCatalogueTests {
        private func scene(_ name: String, key: String) -> Scene {
            Scene(name, key: key, viewModel: CounterViewModel.self, factory: DefaultViewModelFactory())
        }

        @Test("A key without parameters finds its scene, and a parameterized key its scene and parameters")
        func literalAndParameterizedKeys() throws {
            let catalogue = SceneCatalogue(
                scenes: [scene("films", key: "films"), scene("film", key: "film/{id}"), scene("nested", key: "a/b/c")], rootKey: "films")
            #expect(catalogue.scene(forKey: "films")?.scene.name == "films")
            #expect(catalogue.scene(forKey: "films")?.parameters == [:])
            #expect(catalogue.scene(forKey: "a/b/c")?.scene.name == "nested")
            let film = try #require(catalogue.scene(forKey: "film/4"))
            #expect(film.scene.name == "film")
            #expect(film.parameters == ["id": "4"])
            #expect(catalogue.scene(forKey: "films/") == nil)
            #expect(catalogue.scene(forKey: "a/b") == nil)
            #expect(catalogue.scene(forKey: "unknown") == nil)
        }

        @Test("A scene declared earlier whose pattern also takes a literal key wins over the literal scene")
        func firstMatchWins() throws {
            let catalogue = SceneCatalogue(
                scenes: [scene("any", key: "{name}"), scene("films", key: "films"), scene("twice", key: "films")], rootKey: "films")
            let found = try #require(catalogue.scene(forKey: "films"))
            #expect(found.scene.name == "any")
            #expect(found.parameters == ["name": "films"])
            let literalFirst = SceneCatalogue(
                scenes: [scene("films", key: "films"), scene("any", key: "{name}"), scene("twice", key: "films")], rootKey: "films")
            #expect(literalFirst.scene(forKey: "films")?.scene.name == "films")
            #expect(literalFirst.scene(forKey: "people")?.scene.name == "any")
        }
    }
}
