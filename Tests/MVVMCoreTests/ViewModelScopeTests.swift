import Logging
import MVVMCore
import MVVMJSON
import Synchronization
import TestSupport
import Testing

extension Core {
    /// A view model's handle on its context (`ViewModelScope`, AndroidX's `viewModelScope`):
    /// publishing mid-load, tasks cancelled when it is cleared, the other view models, a logger.
    @Suite("The view model's scope", .timeLimit(.minutes(1)))
    struct ViewModelScopeTests {
        /// Counts in steps: `load` publishes each step before the next one passes its gate;
        /// `start` launches a task that counts to `target` through the gate, one step a pass.
        final class Stepper: ViewModel {
            struct Output: Codable, Sendable, Equatable {
                var count = 0
                var finished = false
            }

            enum Action: String, ViewModelAction {
                case start
                static let names = ["start"]
            }

            var input = EmptyInput()
            private(set) var output = Output()
            let scope: ViewModelScope
            let gate: Gate
            let cancelled: Tally

            init(scope: ViewModelScope, gate: Gate, cancelled: Tally) {
                self.scope = scope
                self.gate = gate
                self.cancelled = cancelled
            }

            func load() async throws {
                output.count = 1
                scope.publish()
                try await gate.pass()
                output.count = 2
            }

            func perform(_ action: Action) async throws {
                scope.launch { [self] in
                    do {
                        try await gate.pass()
                        output.count += 10
                        output.finished = true
                    } catch {
                        cancelled.increment()
                    }
                }
            }
        }

        /// A view model that reads the others through its scope.
        final class Reader: ViewModel {
            struct Output: Codable, Sendable, Equatable {}
            var input = EmptyInput()
            let output = Output()
            let scope: ViewModelScope

            init(scope: ViewModelScope) {
                self.scope = scope
            }
        }

        private enum TestKey: DependencyKey {
            static let defaultValue = (gate: Gate(), cancelled: Tally())
        }

        static func context(gate: Gate, cancelled: Tally, logger: Logger = Logger(label: "scope-test")) -> ContextActor {
            var dependencies = DependencyValues()
            dependencies[TestKey.self] = (gate, cancelled)
            let catalogue = SceneCatalogue(
                scenes: [
                    Scene(
                        "stepper", key: "stepper", viewModel: Stepper.self,
                        factory: SingleViewModelFactory { extras in
                            let test = extras.dependencies[TestKey.self]
                            return Stepper(scope: extras.scope, gate: test.gate, cancelled: test.cancelled)
                        }),
                    Scene("reader", key: "reader", viewModel: Reader.self, factory: SingleViewModelFactory { Reader(scope: $0.scope) }),
                ], rootKey: "stepper")
            return ContextActor(id: "scope", catalogue: catalogue, dependencies: dependencies, logger: logger)
        }

        typealias State = SceneState<EmptyInput, Stepper.Output>

        @Test("publish() shows a load's progress before the load ends")
        func publishMidLoad() async throws {
            let gate = Gate()
            let context = Self.context(gate: gate, cancelled: Tally())
            _ = try await context.state(of: "stepper")
            try await gate.waitForArrivals(1)
            let midway = try State(await context.board.waitForDocument(on: .scene("stepper")) { try State($0).output.count == 1 })
            #expect(midway.lifecycle == .loading)
            gate.open()
            let loaded = try State(await context.board.waitForLifecycle(.loaded, of: "stepper"))
            #expect(loaded.output.count == 2)
        }

        @Test("launch() runs on the context, and what the task changes is published when it ends")
        func launchedTaskPublishes() async throws {
            let gate = Gate()
            let context = Self.context(gate: gate, cancelled: Tally())
            _ = try await context.state(of: "stepper")
            gate.open()
            _ = try await context.board.waitForLifecycle(.loaded, of: "stepper")
            _ = try await context.perform(action: "start", arguments: [:], key: "stepper")
            let finished = try State(await context.board.waitForDocument(on: .scene("stepper")) { try State($0).output.finished })
            #expect(finished.output.count == 12)
        }

        @Test("Finished loads and launched tasks are let go of: a long-lived view model keeps only the tasks still running")
        func finishedTasksAreLetGo() async throws {
            let gate = Gate()
            let context = Self.context(gate: gate, cancelled: Tally())
            _ = try await context.state(of: "stepper")
            gate.open()
            _ = try await context.board.waitForLifecycle(.loaded, of: "stepper")
            // One task at a time: each is let go of when it ends.
            for launched in 1...50 {
                _ = try await context.perform(action: "start", arguments: [:], key: "stepper")
                _ = try await context.board.waitForDocument(on: .scene("stepper")) { try State($0).output.count == 2 + launched * 10 }
            }
            let letGo = try await eventually { await context.withContext { $0.store.trackedTaskCount(key: "stepper") } == 0 }
            #expect(letGo, "the load and the 50 launched tasks have ended, and none is kept")
        }

        @Test("A launched task is cancelled when its view model is cleared")
        func launchedTaskCancelledOnClear() async throws {
            let gate = Gate()
            let cancelled = Tally()
            let context = Self.context(gate: gate, cancelled: cancelled)
            _ = try await context.state(of: "stepper")
            try await gate.waitForArrivals(1)
            _ = try await context.perform(action: "start", arguments: [:], key: "stepper")
            try await gate.waitForArrivals(2)
            await context.clearStore()
            try await cancelled.wait(untilAtLeast: 1)
            #expect(cancelled.value == 1)
        }

        @Test("existing, failure(of:) and viewModel(_:key:) reach the other view models of the context")
        func reachesOthers() async throws {
            // An open gate: the stepper made below loads to its end (a load left waiting would
            // keep its context alive past the test).
            let gate = Gate()
            gate.open()
            let context = Self.context(gate: gate, cancelled: Tally())
            _ = try await context.state(of: "reader")
            try await context.withContext { context in
                let scope = try #require(context.store.existing(Reader.self, key: "reader")).scope
                #expect(scope.existing(Stepper.self, key: "stepper") == nil, "existing makes nothing")
                let stepper = try scope.viewModel(Stepper.self, key: "stepper")
                #expect(scope.existing(Stepper.self, key: "stepper") === stepper)
                #expect(scope.existing(Reader.self, key: "stepper") == nil, "another type is not found")
                #expect(scope.failure(of: "stepper") == nil)
                #expect(throws: ViewModelStoreError.unknownKey("jabba")) { try scope.viewModel(Reader.self, key: "jabba") }
            }
        }

        @Test("The scope's logger names the view model's key beside the context's metadata")
        func loggerMetadata() async throws {
            let lines = CapturedLogLines()
            var logger = Logger(label: "scope-test") { _ in CapturingLogHandler(lines: lines) }
            logger[metadataKey: "session"] = "abcd…"
            let context = Self.context(gate: Gate(), cancelled: Tally(), logger: logger)
            _ = try await context.state(of: "reader")
            await context.withContext { context in
                context.store.existing(Reader.self, key: "reader")?.scope.logger.info("hello")
            }
            let line = try #require(lines.all.first { $0.message == "hello" })
            #expect(line.metadata["scene"] == "reader")
            #expect(line.metadata["session"] == "abcd…")
        }
    }
}
