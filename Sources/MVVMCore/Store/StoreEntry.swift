import Foundation
import MVVMJSON

// Exclusivity of its fields is not checked at run time (@exclusivity(unchecked)): an entry is
// touched only by its store, on its context's isolation, one call at a time, and every access
// to a field is a plain read or write that calls nothing that could touch the same field.
/// One view model in a store, with its lifecycle, version and last published state.
package final class StoreEntry {
    /// The store key, e.g. `film/2`.
    package let key: String
    /// The scene's name, e.g. `film`.
    package let scene: String
    /// The lifecycle.
    @exclusivity(unchecked) package var lifecycle = Lifecycle()
    /// The version of the last published state; 0 before the first.
    @exclusivity(unchecked) package var version: UInt64 = 0
    /// The last error that a load or an action threw, shown in the state; `nil` once one succeeds.
    @exclusivity(unchecked) package var error: String?
    /// The encoded state document of ``version``.
    @exclusivity(unchecked) package var document = Data()
    /// The last published snapshot, when the view model publishes one.
    @exclusivity(unchecked) package var snapshot: Snapshot?
    /// The version at which ``snapshot`` was published.
    @exclusivity(unchecked) package var snapshotVersion: UInt64 = 0

    let viewModel: AnyViewModel
    @exclusivity(unchecked) var encodedInput: [UInt8] = []
    @exclusivity(unchecked) var encodedOutput = EncodedMembers()
    @exclusivity(unchecked) var publishedLifecycle: Lifecycle.State?
    @exclusivity(unchecked) var publishedError: String??
    /// The tasks running for the view model, by the number the store keeps each under.
    @exclusivity(unchecked) var tasks: [UInt64: Task<Void, Never>] = [:]
    @exclusivity(unchecked) var resources: [any ViewModelResource] = []
    @exclusivity(unchecked) var isCleared = false

    init(key: String, scene: String, viewModel: AnyViewModel) {
        self.key = key
        self.scene = scene
        self.viewModel = viewModel
        ViewModelCensus.made()
    }

    deinit {
        ViewModelCensus.released()
    }

    /// The view model itself, for a view model that works with another one of its context.
    package var object: AnyObject {
        viewModel.object
    }

    /// The view model's type, module-qualified.
    package var typeName: String {
        viewModel.typeName
    }
}
