import Foundation
import MVVMJSON

/// One view model in a store, with its lifecycle, version and last published state.
public final class StoreEntry {
    /// The store key, e.g. `film/2`.
    public let key: String
    /// The scene's name, e.g. `film`.
    public let scene: String
    /// The lifecycle.
    public package(set) var lifecycle = Lifecycle()
    /// The version of the last published state; 0 before the first.
    public package(set) var version: UInt64 = 0
    /// The last error that a load or an action threw, shown in the state; `nil` once one succeeds.
    public package(set) var error: String?
    /// The encoded state document of ``version``.
    public package(set) var document = Data()
    /// The last published snapshot, when the view model publishes one.
    public package(set) var snapshot: Snapshot?
    /// The version at which ``snapshot`` was published.
    public package(set) var snapshotVersion: UInt64 = 0

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
    public var object: AnyObject {
        viewModel.object
    }

    /// The view model's type, module-qualified.
    public var typeName: String {
        viewModel.typeName
    }
}

/// A resource a view model holds (a subscription, a file, a timer) that the store closes when
/// the view model is cleared (AndroidX's `AutoCloseable`s added with `addCloseable`).
public protocol ViewModelResource: AnyObject {
    /// Releases the resource. Called once.
    func close()
}
