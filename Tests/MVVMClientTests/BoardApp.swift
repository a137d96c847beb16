import MVVMServer

/// The app of the client tests: a `board` (the root) whose snapshot is exactly the rows of its
/// input, so that a test can make any snapshot it likes; and a `counter` with actions.
enum BoardApp {
    /// One row of the board: an item of section `section`.
    struct Row: Codable, Sendable, Equatable {
        var id: String
        var section: String
        var title: String
        var done = false
    }

    /// A board's item as a client decodes it.
    struct Cell: Decodable, Equatable {
        var id: String
        var cell: String
        var title: String
        var done: Bool
    }

    /// The board: rows in, their count out, a snapshot of the rows by section (sections in the
    /// order they first appear).
    final class Board: ViewModel, SnapshotProviding {
        struct Input: ViewModelInput {
            var rows: [Row] = []
            init() {}
        }

        struct Output: Codable, Sendable, Equatable {
            var count = 0
        }

        var input = Input()
        private(set) var output = Output()
        private(set) var snapshot = Snapshot()

        func inputDidChange() {
            var order: [String] = []
            var items: [String: [Snapshot.Item]] = [:]
            for row in input.rows {
                if items[row.section] == nil { order.append(row.section) }
                items[row.section, default: []].append(
                    Snapshot.Item(id: row.id, cell: "row", fields: ["title": .string(row.title), "done": .bool(row.done)]))
            }
            snapshot = (try? Snapshot(sections: order.map { Snapshot.Section(id: $0, items: items[$0] ?? []) })) ?? Snapshot()
            output.count = input.rows.count
        }
    }

    /// A counter: `step` in, `count` out; `increment`, `reset`, and `open`, which pushes the board.
    final class Counter: ViewModel {
        struct Input: ViewModelInput {
            var step = 1
            init() {}
        }

        struct Output: Codable, Sendable, Equatable {
            var count = 0
        }

        enum Action: String, CaseIterable, ViewModelAction {
            case increment, reset, open
        }

        var input = Input()
        private(set) var output = Output()
        private let navigator: Navigator?

        init(navigator: Navigator?) {
            self.navigator = navigator
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .increment: output.count += input.step
            case .reset: output.count = 0
            case .open: try navigator?.push("board")
            }
        }
    }

    /// A ticker: `start` returns at once and launches work that counts a tick a little later
    /// (a version the test must receive); `fail` throws.
    final class Ticker: ViewModel {
        struct Output: Codable, Sendable, Equatable {
            var ticks = 0
            var started = false
        }

        enum Action: String, CaseIterable, ViewModelAction {
            case start, fail
        }

        struct Failure: Error {}

        var input = EmptyInput()
        private(set) var output = Output()
        private let scope: ViewModelScope

        init(scope: ViewModelScope) {
            self.scope = scope
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .start:
                output.started = true
                scope.launch { [self] in
                    try? await Task.sleep(for: .milliseconds(20))
                    output.ticks += 1
                }
            case .fail:
                throw Failure()
            }
        }
    }

    /// A tally: `tap` counts, and the count is a saved value, so that it survives a restart.
    final class Tally: ViewModel {
        struct Output: Codable, Sendable, Equatable {
            var taps = 0
        }

        enum Action: String, CaseIterable, ViewModelAction {
            case tap
        }

        var input = EmptyInput()
        private(set) var output = Output()
        private let saved: SavedStateHandle

        init(scope: ViewModelScope) {
            saved = scope.savedState
            output.taps = saved["taps", as: Int.self] ?? 0
        }

        func perform(_ action: Action) async throws {
            output.taps += 1
            saved["taps"] = output.taps
        }
    }

    /// The catalogue; `counter` is the root.
    static let catalogue = SceneCatalogue(
        scenes: [
            Scene(
                "counter", key: "counter", viewModel: Counter.self,
                factory: SingleViewModelFactory { extras in
                    Counter(navigator: try? extras.scope.navigator())
                }),
            Scene("board", key: "board", viewModel: Board.self, factory: SingleViewModelFactory { _ in Board() }),
            Scene("ticker", key: "ticker", viewModel: Ticker.self, factory: SingleViewModelFactory { extras in Ticker(scope: extras.scope) }),
            Scene("tally", key: "tally", viewModel: Tally.self, factory: SingleViewModelFactory { extras in Tally(scope: extras.scope) }),
        ],
        rootKey: "counter")
}
