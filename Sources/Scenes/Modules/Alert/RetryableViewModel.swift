/// A view model whose failed service call can be tried again from the alert scene.
public protocol RetryableViewModel: AnyObject {
    /// Why the last call failed, or `nil` when it succeeded.
    var failure: String? { get }
    /// Tries the failed call again; `true` when it succeeded.
    func retry() async -> Bool
}
