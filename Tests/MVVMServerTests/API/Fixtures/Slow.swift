import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import Synchronization

extension APIFixtures {
    /// A scene whose load waits until its gate opens; `ready` turns true when it has. Its
    /// action `launchWait` sets `ready` back to false and launches a task that waits for the
    /// task gate, then sets it true again.
    final class Slow: ViewModel {
        struct Output: Codable, Sendable, Equatable {
            var ready = false
        }

        enum Action: String, CaseIterable, ViewModelAction { case launchWait }

        var input = EmptyInput()
        private(set) var output = Output()
        private let gate: LoadGate
        private let taskGate: LoadGate
        private let scope: ViewModelScope?

        init(gate: LoadGate, taskGate: LoadGate = LoadGate(open: true), scope: ViewModelScope? = nil) {
            self.gate = gate
            self.taskGate = taskGate
            self.scope = scope
        }

        func load() async throws {
            try await gate.wait()
            output.ready = true
        }

        func perform(_ action: Action) async throws {
            output.ready = false
            scope?.launch { [unowned self, taskGate] in
                guard (try? await taskGate.wait()) != nil else { return }
                output.ready = true
            }
        }
    }

    /// Holds `slow` scenes in their load until a test opens it; a wait ends early when the
    /// load is cancelled (the view model unloads).
    final class LoadGate: Sendable {
        private let isOpen: Mutex<Bool>

        init(open: Bool = false) {
            isOpen = Mutex(open)
        }

        /// Lets every waiting load go on.
        func open() {
            isOpen.withLock { $0 = true }
        }

        /// Returns once the gate is open; throws `CancellationError` when the load is cancelled.
        func wait() async throws {
            while !isOpen.withLock({ $0 }) {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// The gate the `slow` scene waits on: an open one unless a test sets its own.
    enum LoadGateKey: DependencyKey {
        static let defaultValue = LoadGate(open: true)
    }

    /// The gate the task of `launchWait` waits on: an open one unless a test sets its own.
    enum TaskGateKey: DependencyKey {
        static let defaultValue = LoadGate(open: true)
    }
}

extension DependencyValues {
    /// The gate the `slow` scene's load waits on.
    var loadGate: APIFixtures.LoadGate {
        get { self[APIFixtures.LoadGateKey.self] }
        set { self[APIFixtures.LoadGateKey.self] = newValue }
    }

    /// The gate the task of the `slow` scene's `launchWait` waits on.
    var taskGate: APIFixtures.LoadGate {
        get { self[APIFixtures.TaskGateKey.self] }
        set { self[APIFixtures.TaskGateKey.self] = newValue }
    }
}
