import Foundation
import MVVMJSON

/// One view model in a store, with its lifecycle, version and last published state.
package final class StoreEntry {
    /// The store key, e.g. `film/2`.
    package let key: String
    /// The scene's name, e.g. `film`.
    package let scene: String
    /// The lifecycle.
    package var lifecycle = Lifecycle()
    /// The version of the last published state; 0 before the first.
    package var version: UInt64 = 0
    /// The last error that a load or an action threw, shown in the state; `nil` once one succeeds.
    package var error: String?
    /// The encoded state document of ``version``.
    package var document = Data()
    /// The last published snapshot, when the view model publishes one.
    package var snapshot: Snapshot?
    /// The version at which ``snapshot`` was published.
    package var snapshotVersion: UInt64 = 0

    let viewModel: AnyViewModel
    var encodedInput: [UInt8] = []
    var encodedOutput = EncodedMembers()
    var publishedLifecycle: Lifecycle.State?
    var publishedError: String??
    var tasks: [Task<Void, Never>] = []
    var resources: [any ViewModelResource] = []
    var isCleared = false

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
