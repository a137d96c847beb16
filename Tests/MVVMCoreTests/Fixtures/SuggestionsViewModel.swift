import MVVMCore
import MVVMJSON
import MVVMSupport

extension Core {
    /// The input/output view model of RxSwift-MVVM-PoP (seed 001): a query in, suggestions out.
    ///
    /// Its load fetches the words from its ``SuggestionService``; while the load is suspended,
    /// a new query is applied at once (inputs are latest-wins) and the suggestions computed when
    /// the words arrive use the latest query. What the load saw is written to `report`.
    final class SuggestionsViewModel: ViewModel {
        struct Input: ViewModelInput {
            var query = ""
        }

        struct Output: Codable, Sendable, Equatable {
            var query = ""
            var suggestions: [String] = []
            var wordCount = 0
        }

        var input = Input()
        private(set) var output = Output()
        private let service: any SuggestionService
        private let report: Recorder?
        private var words: [String] = []

        init(service: any SuggestionService, report: Recorder? = nil) {
            self.service = service
            self.report = report
        }

        func inputDidChange() {
            recompute()
        }

        func load() async throws {
            report?.record("load started")
            do {
                words = try await service.words()
            } catch {
                report?.record(error is CancellationError ? "load saw CancellationError" : "load failed: \(error)")
                throw error
            }
            report?.record(Task.isCancelled ? "load finished cancelled" : "load finished")
            recompute()
        }

        /// The factory: reads the service from the creation's dependencies, as a scene's
        /// factory injects its services (SWAPI MVVM's `dependencyManager.swapi`).
        static func factory(report: Recorder? = nil) -> SingleViewModelFactory<SuggestionsViewModel> {
            SingleViewModelFactory { extras in
                SuggestionsViewModel(service: extras.dependencies.suggestions, report: report)
            }
        }

        /// A catalogue with the scene `suggestions` as its root.
        static func catalogue(report: Recorder? = nil) -> SceneCatalogue {
            SceneCatalogue(
                scenes: [Scene("suggestions", key: "suggestions", viewModel: SuggestionsViewModel.self, factory: factory(report: report))],
                rootKey: "suggestions")
        }

        private func recompute() {
            output.query = input.query
            output.wordCount = words.count
            output.suggestions = input.query.isEmpty ? [] : words.filter { $0.hasPrefix(input.query) }.sorted()
        }
    }
}
