import MVVMServer

/// A coordinator that presents the alert scene about a scene whose service call failed
/// (SWAPI MVVM's `Alert` module, shown by flow controllers).
public protocol AlertPresenting: Coordinator {}

extension AlertPresenting {
    /// Presents `alert/{key}` modally.
    public func showAlert(about key: String) throws {
        try navigator.present("alert/\(key)")
    }

    /// Reports a failed service call of the scene under `key`: presents the alert and returns the
    /// message the scene shows in its output; `nil` for a cancellation, which is not a failure.
    public func report(_ error: any Error, about key: String) -> String? {
        if error is CancellationError { return nil }
        try? showAlert(about: key)
        return String(describing: error)
    }
}
