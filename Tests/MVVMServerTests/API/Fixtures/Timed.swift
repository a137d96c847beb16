import MVVMServer

extension APIFixtures {
    /// A scene on the clock of ``DependencyValues``: its load waits 30 s of it. `chain`
    /// launches a task that waits 10 s three times, counting (and publishing) `ticks` after each
    /// wait. `race`
    /// launches a task racing a 5 s wait of the clock against work that never waits for it
    /// (many hops of a child task); `winner` names the one that ended first.
    final class Timed: ViewModel {
        struct Output: Codable, Sendable, Equatable {
            var loaded = false
            var ticks = 0
            var winner = ""
        }

        enum Action: String, CaseIterable, ViewModelAction { case chain, race }

        var input = EmptyInput()
        private(set) var output = Output()
        private let clock: any Clock<Duration>
        private let scope: ViewModelScope

        init(clock: any Clock<Duration>, scope: ViewModelScope) {
            self.clock = clock
            self.scope = scope
        }

        func load() async throws {
            try await clock.sleep(for: .seconds(30))
            output.loaded = true
        }

        func perform(_ action: Action) async throws {
            let clock = clock
            switch action {
            case .chain:
                scope.launch { [unowned self] in
                    for _ in 0..<3 {
                        guard (try? await clock.sleep(for: .seconds(10))) != nil else { return }
                        output.ticks += 1
                        scope.publish()
                    }
                }
            case .race:
                scope.launch { [unowned self] in
                    let winner = await withTaskGroup(of: String.self) { group in
                        group.addTask {
                            (try? await clock.sleep(for: .seconds(5))) == nil ? "cancelled" : "clock"
                        }
                        group.addTask {
                            for _ in 0..<2_000 { await Task.yield() }
                            return "work"
                        }
                        let first = await group.next() ?? ""
                        group.cancelAll()
                        return first
                    }
                    output.winner = winner
                }
            }
        }
    }
}
