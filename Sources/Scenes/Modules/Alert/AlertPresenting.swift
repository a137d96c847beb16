import MVVMServer

/// A coordinator that presents the alert scene about a scene whose service call failed
/// (SWAPI MVVM's `Alert` module, shown by flow controllers).
public protocol AlertPresenting: Coordinator {}

extension AlertPresenting {
    /// Presents `alert/{key}` modally.
    public func showAlert(about key: String) throws {
        try navigator.present("alert/\(key)")
    }

    /// Reports a failed service call of the scene under `key`: `record` puts the message in the
    /// scene's output first (the alert reads it when it is made), then the alert is presented.
    /// A cancellation is not a failure and is not reported.
    public func report(_ error: any Error, about key: String, recording record: (String) -> Void) {
        if error is CancellationError { return }
        record(String(describing: error))
        try? showAlert(about: key)
    }
}
