/// Decides navigation for one scene (MVVMKit's `Coordinator`, SWAPI MVVM's flow controller).
///
/// A view model navigates only through its coordinator; the coordinator names the next scene
/// by key and asks the context's ``Navigator`` to show it. The navigator makes the scene's
/// view model through its factory, as a flow controller calls `Factory.pushIn`.
public protocol Coordinator {
    /// The context's navigator.
    var navigator: Navigator { get }
}

/// A coordinator of a container scene, which embeds children in named slots
/// (MVVMKit's `EmbedderCoordinator`).
public protocol EmbedderCoordinator: Coordinator {
    /// The key of the container scene.
    var containerKey: String { get }
}

extension EmbedderCoordinator {
    /// Embeds the scene with `key` in a slot of the container, replacing what was there.
    public func embed(_ key: String, in slot: String) throws {
        try navigator.embed(key, in: slot, of: containerKey)
    }
}
