import MVVMServer

/// The flow controller of the films scene: shows a film, or the alert when loading failed.
public struct FilmsCoordinator: AlertPresenting {
    /// The context's navigator.
    public let navigator: Navigator

    /// Pushes the film's details.
    public func showFilm(id: Int) throws {
        try navigator.push("film/\(id)")
    }
}
