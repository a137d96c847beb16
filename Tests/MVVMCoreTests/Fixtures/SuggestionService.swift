import MVVMCore
import MVVMJSON
import MVVMSupport
import TestSupport

extension Core {
    /// A service a view model needs (RxSwift-MVVM-PoP's `MapKitService`): the words that
    /// suggestions are drawn from.
    protocol SuggestionService: Sendable {
        /// Every word the service knows.
        func words() async throws -> [String]
    }

    /// The service used when none is set: a fixed list, answered at once.
    struct StaticSuggestionService: SuggestionService {
        var list = ["leia", "luke", "lando", "han"]

        func words() async throws -> [String] {
            list
        }
    }

    /// A fake that reports how often it was asked and, when given a gate, holds every call at it
    /// until the test opens it.
    actor FakeSuggestionService: SuggestionService {
        private let list: [String]
        private let gate: Gate?
        private(set) var calls = 0

        init(_ list: [String], gate: Gate? = nil) {
            self.list = list
            self.gate = gate
        }

        func words() async throws -> [String] {
            calls += 1
            try await gate?.pass()
            return list
        }
    }

    /// The dependency key of the suggestion service.
    enum SuggestionServiceKey: DependencyKey {
        static let defaultValue: any SuggestionService = StaticSuggestionService()
    }
}

extension DependencyValues {
    /// The suggestion service of the core tests.
    var suggestions: any Core.SuggestionService {
        get { self[Core.SuggestionServiceKey.self] }
        set { self[Core.SuggestionServiceKey.self] = newValue }
    }
}
