import MVVMServer

/// The flow controller of the films scene: shows a film, or the alert when loading failed.
public struct FilmsCoordinator: Coordinator {
    /// The context's navigator.
    public let navigator: Navigator

    /// Pushes the film's details.
    public func showFilm(id: Int) throws {
        try navigator.push("film/\(id)")
    }

    /// Presents the alert about the scene under `key`.
    public func showAlert(about key: String) throws {
        try navigator.present("alert/\(key)")
    }
}
