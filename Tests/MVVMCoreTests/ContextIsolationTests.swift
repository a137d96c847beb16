import MVVMCore
import Synchronization
import TestSupport
import Testing

extension Core {
    /// A view model's code runs one job at a time on its context, wherever it is written: a
    /// load or action compiled as `@concurrent` (what a package without nonsending isolation
    /// gets for every `async` method), a closure handed to `launch`, after each of their awaits,
    /// and in the child tasks they make.
    @Suite("A view model's code on its context", .timeLimit(.minutes(1)))
    struct ContextIsolationTests {
        /// Where each step of a view model's code ran: on its context's thread, or not.
        final class Places: Sendable {
            /// The context, held weakly: it holds this object among its dependencies.
            private struct WeakContext {
                weak var actor: ContextActor?
            }

            private let context = Mutex(WeakContext())
            private let seen = Mutex<[String: Bool]>([:])

            func attach(_ actor: ContextActor) {
                context.withLock { $0.actor = actor }
            }

            /// Notes whether the calling thread runs the context's work now.
            func note(_ step: String) {
                let here = context.withLock { $0.actor?.isRunningOnCallingThread ?? false }
                seen.withLock { $0[step] = here }
            }

            var steps: [String: Bool] {
                seen.withLock { $0 }
            }
        }

        /// Notes where its load, its action, a launched task and that task's children run;
        /// `count` is raised by many launched tasks at once, one step per await.
        final class Prober: ViewModel {
            struct Output: Codable, Sendable, Equatable {
                var count = 0
                var tasksEnded = 0
            }

            enum Action: String, ViewModelAction {
                case probe, count
                static let names = ["probe", "count"]
            }

            static let counters = 20
            static let stepsPerCounter = 50

            var input = EmptyInput()
            private(set) var output = Output()
            let scope: ViewModelScope
            let places: Places

            init(scope: ViewModelScope, places: Places) {
                self.scope = scope
                self.places = places
            }

            @concurrent func load() async throws {
                places.note("load")
                await Task.yield()
                places.note("load, after an await")
            }

            @concurrent func perform(_ action: Action) async throws {
                places.note("action")
                switch action {
                case .probe:
                    scope.launch { [self] in
                        places.note("launched task")
                        await Task.yield()
                        places.note("launched task, after an await")
                        await elsewhere()
                        places.note("launched task, after a @concurrent call")
                        await withTaskGroup(of: Void.self) { group in
                            group.addTask { [places] in places.note("child task") }
                        }
                        output.tasksEnded += 1
                    }
                case .count:
                    for _ in 0..<Self.counters {
                        scope.launch { [self] in
                            for _ in 0..<Self.stepsPerCounter {
                                let before = output.count
                                output.count = before + 1
                                await Task.yield()
                            }
                            output.tasksEnded += 1
                        }
                    }
                }
            }

            @concurrent private func elsewhere() async {
                places.note("a @concurrent call")
                await Task.yield()
            }
        }

        private enum PlacesKey: DependencyKey {
            static let defaultValue = Places()
        }

        static func context(_ places: Places) -> ContextActor {
            var dependencies = DependencyValues()
            dependencies[PlacesKey.self] = places
            let catalogue = SceneCatalogue(
                scenes: [
                    Scene(
                        "prober", key: "prober", viewModel: Prober.self,
                        factory: SingleViewModelFactory { Prober(scope: $0.scope, places: $0.dependencies[PlacesKey.self]) })
                ], rootKey: "prober")
            let context = ContextActor(id: "isolation", catalogue: catalogue, dependencies: dependencies)
            places.attach(context)
            return context
        }

        typealias State = SceneState<EmptyInput, Prober.Output>

        @Test("A @concurrent load and action, a launched task after each await, a @concurrent call and a child task run on the context")
        func everyStepOnTheContext() async throws {
            let places = Places()
            let context = Self.context(places)
            _ = try await context.state(of: "prober")
            _ = try await context.board.waitForLifecycle(.loaded, of: "prober")
            _ = try await context.perform(action: "probe", arguments: [:], key: "prober")
            _ = try await context.board.waitForDocument(on: .scene("prober")) { try State($0).output.tasksEnded == 1 }
            let steps = [
                "load", "load, after an await", "action", "launched task", "launched task, after an await", "a @concurrent call",
                "launched task, after a @concurrent call", "child task",
            ]
            #expect(places.steps == Dictionary(uniqueKeysWithValues: steps.map { ($0, true) }))
            await context.close()
        }

        @Test("Tasks launched together take turns: each read and write of the view model is one job, so no step is lost")
        func launchedTasksTakeTurns() async throws {
            let context = Self.context(Places())
            _ = try await context.state(of: "prober")
            _ = try await context.board.waitForLifecycle(.loaded, of: "prober")
            _ = try await context.perform(action: "count", arguments: [:], key: "prober")
            let ended = try State(
                await context.board.waitForDocument(on: .scene("prober")) { try State($0).output.tasksEnded == Prober.counters })
            #expect(ended.output.count == Prober.counters * Prober.stepsPerCounter)
            await context.close()
        }
    }
}
