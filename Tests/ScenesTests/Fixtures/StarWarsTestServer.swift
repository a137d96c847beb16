import MVVMServer
import MVVMServerTesting
@testable import Scenes

extension TestServer {
    /// The Star Wars app served for a test, with `swapi` (a fake by default) as its SWAPI.
    static func starWars(swapi: FakeSwapiService = FakeSwapiService()) -> TestServer {
        var dependencies = DependencyValues()
        dependencies.swapi = swapi
        return TestServer(catalogue: StarWarsApp.catalogue(), dependencies: dependencies)
    }
}
