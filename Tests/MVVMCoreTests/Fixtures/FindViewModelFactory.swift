import MVVMCore
import MVVMJSON
import MVVMSupport

extension Core {
    /// The find screen of seed 000: the client types a predicate into it.
    final class FindViewModel: InitializableViewModel {
        struct Input: ViewModelInput {
            var predicate = ""
        }

        struct Output: Codable, Sendable, Equatable {
            var predicate = ""
        }

        var input = Input()
        private(set) var output = Output()
        /// What other view models of the context bind to (the seed's RxSwift `Variable`).
        let searchPredicate = ObservableValue("")

        init() {}

        func inputDidChange() {
            output.predicate = input.predicate
            searchPredicate.value = input.predicate
        }
    }

    /// The global search results of seed 000, driven by the find screen's predicate.
    final class SearchGlobalViewModel: ViewModel {
        struct Output: Codable, Sendable, Equatable {
            var predicate = ""
            var results: [String] = []
        }

        static let planets = ["Dagobah", "Endor", "Hoth", "Naboo", "Tatooine"]

        var input = EmptyInput()
        private(set) var output = Output(results: SearchGlobalViewModel.planets)

        /// Shows the planets matching `predicate`.
        func search(_ predicate: String) {
            output.predicate = predicate
            output.results = predicate.isEmpty ? Self.planets : Self.planets.filter { $0.localizedCaseInsensitiveContains(predicate) }
        }
    }

    /// The brand list of seed 000, made from a list its factory passes in.
    final class BrandListViewModel: ViewModel {
        struct Output: Codable, Sendable, Equatable {
            var brands: [String]
        }

        var input = EmptyInput()
        let output: Output

        init(brands: [String]) {
            output = Output(brands: brands)
        }
    }

    /// The product categories of seed 000.
    final class ProductCategoryListViewModel: InitializableViewModel {
        struct Output: Codable, Sendable, Equatable {
            var categories = ["droids", "ships"]
        }

        var input = EmptyInput()
        let output = Output()
    }

    /// Seed 000's `FindViewModelFactory`, ported: one composite factory for every scene of the
    /// find feature. The seed kept the find view model in a lazy property of the factory and bound
    /// the results to it with RxSwift (`disposed(by: disposeBag)`); here factories hold no state,
    /// so the results' factory takes the find view model of the same context from
    /// `extras.context` and subscribes to its predicate, handing the subscription to the store
    /// (`extras.addResource`), which closes it when the results are cleared. A change of the
    /// predicate updates the results, which are published when the context's current call ends
    /// (`setNeedsRefresh`).
    struct FindViewModelFactory: ViewModelFactory {
        /// The key of the find view model in every context.
        static let findKey = "find"

        private let factory: CompositeViewModelFactory

        init(brands: [String] = ["Incom", "Kuat", "Sienar"]) {
            var factory = CompositeViewModelFactory()
            factory.add { _ in FindViewModel() }
            factory.add { extras in try Self.makeSearchGlobal(extras) }
            factory.add { _ in BrandListViewModel(brands: brands) }
            factory.add(DefaultViewModelFactory())
            self.factory = factory
        }

        func create<Model: ViewModel>(_ type: Model.Type, extras: CreationExtras) throws -> Model? {
            try factory.create(type, extras: extras)
        }

        private static func makeSearchGlobal(_ extras: CreationExtras) throws -> SearchGlobalViewModel {
            let context = try extras.requireContext()
            let find = try context.viewModel(FindViewModel.self, key: findKey)
            let results = SearchGlobalViewModel()
            let key = extras.key
            let subscription = find.searchPredicate.subscribe { [weak results, weak context] predicate in
                results?.search(predicate)
                context?.setNeedsRefresh(key)
            }
            extras.addResource(subscription)
            return results
        }

        /// The scenes of the find feature, all made by this factory.
        static func catalogue() -> SceneCatalogue {
            let factory = FindViewModelFactory()
            return SceneCatalogue(
                scenes: [
                    Scene("find", key: findKey, viewModel: FindViewModel.self, factory: factory),
                    Scene("searchGlobal", key: "find/results", viewModel: SearchGlobalViewModel.self, factory: factory),
                    Scene("brands", key: "brands", viewModel: BrandListViewModel.self, factory: factory),
                    Scene("productCategories", key: "product-categories", viewModel: ProductCategoryListViewModel.self, factory: factory),
                ],
                rootKey: findKey)
        }
    }
}
