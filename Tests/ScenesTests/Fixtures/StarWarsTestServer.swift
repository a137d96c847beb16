import MVVMServer
import MVVMServerTesting

@testable import Scenes

extension TestServer {
    /// The Star Wars app served for a test, with `swapi` (a fake by default) as its SWAPI, and
    /// its sessions saved in `stateFile` when given.
    static func starWars(swapi: FakeSwapiService = FakeSwapiService(), stateFile: String? = nil) -> TestServer {
        var dependencies = DependencyValues()
        dependencies.swapi = swapi
        var configuration = ApplicationConfiguration()
        configuration.storage = stateFile.map { .sqlite(path: $0) }
        return TestServer(catalogue: StarWarsApp.catalogue(), dependencies: dependencies, configuration: configuration)
    }
}
