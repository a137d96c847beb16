import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport

/// The test-only scenes of the API tests, built with MVVMServer's public API alone.
///
/// - `counter` (the root): a name and a step in; a count and a greeting out; actions that
///   count, and one that pushes `detail/{id}`.
/// - `detail/{id}`: a key that spans two segments; its output is the id parsed from the key.
/// - `shelf`: a list of books published as a diffable snapshot, changed by actions.
/// - `slow`: a scene whose load waits until its ``LoadGate`` opens.
/// - `timed`: a scene whose load and tasks wait on the clock of ``DependencyValues``.
enum APIFixtures {
    /// The catalogue of the fixture scenes; `counter` is the root of every session.
    static func catalogue() -> SceneCatalogue {
        SceneCatalogue(
            scenes: [
                Scene(
                    "counter", key: "counter", viewModel: Counter.self,
                    factory: SingleViewModelFactory { extras in
                        Counter(coordinator: extras.context.map { CounterCoordinator(navigator: $0.navigator) })
                    }),
                Scene(
                    "detail", key: "detail/{id}", viewModel: Detail.self,
                    factory: SingleViewModelFactory { extras in
                        Detail(id: extras.intParameter("id") ?? 0)
                    }),
                Scene("shelf", key: "shelf", viewModel: Shelf.self, factory: SingleViewModelFactory { _ in Shelf() }),
                Scene(
                    "slow", key: "slow", viewModel: Slow.self,
                    factory: SingleViewModelFactory { extras in
                        Slow(gate: extras.dependencies.loadGate, taskGate: extras.dependencies.taskGate, scope: extras.scope)
                    }),
                Scene(
                    "timed", key: "timed", viewModel: Timed.self,
                    factory: SingleViewModelFactory { extras in
                        Timed(clock: extras.dependencies.clock, scope: extras.scope)
                    }),
            ],
            rootKey: "counter")
    }
}
