/// One scene of an app, as a module: its name, the pattern of its store keys, its view
/// model's type, the factory that makes it, the slots it offers to embedded children and the
/// child each slot starts with, and whether clients reach it.
///
/// The scene's coordinator is made by its factory and handed to the view model, as SWAPI
/// MVVM's `Factory.create` wires a flow controller into its view model.
public struct Scene: Sendable {
    /// The scene's name, e.g. `film`.
    package let name: String
    /// The pattern of its keys, e.g. `film/{id}`.
    package let keyPattern: PathPattern
    /// The names of its input members.
    package let inputMembers: [String]
    /// The names of its actions.
    package let actions: [String]
    /// The arguments of each action, by the action's name.
    package let actionArguments: [String: [ActionArgument]]
    /// The slots of a container scene.
    package let slots: [String]
    /// The key of the child each slot starts with, by slot; `{name}` stands for the container
    /// key's parameter of that name.
    package let firstChildren: [String: String]
    /// Whether clients reach the scene: listed by `GET /scenes`, addressed over HTTP, shown.
    package let isAddressable: Bool
    /// Whether it publishes a diffable snapshot.
    package let hasSnapshot: Bool
    /// The kinds of cell its snapshot declares (``SnapshotProviding/cells``).
    package let cellNames: [String]
    let make: @Sendable (ViewModelStore, CreationExtras) throws -> Void
    /// The schemas of the view model's types, for the app's contract.
    package let schemas: @Sendable (TypeDescriber) -> SceneSchemas

    /// Declares a scene whose view models are made by `factory`.
    ///
    /// - Parameters:
    ///   - slots: the slots of a container scene, in which its coordinator embeds children.
    ///   - firstChildren: the key of the scene each slot starts with (`["step": "account"]`),
    ///     embedded whenever the container is shown, in the same navigation step, so that the
    ///     first answer that shows the container shows them too. `{name}` in a key stands for
    ///     the container key's parameter of that name (`"step/{id}"` in `wizard/{id}`). A slot
    ///     named here is a slot of the scene.
    ///   - addressable: `false` for a scene of the app's own, whose view models only other view
    ///     models reach (``ViewModelScope/viewModel(_:key:)``): shared state, or what steps keep
    ///     while the user goes back and forth. Such a scene is not listed by `GET /scenes`, no
    ///     request reaches its keys (404 `scene-not-found`), the session's summary leaves it
    ///     out, and it cannot be shown.
    public init<Model: ViewModel>(
        _ name: String, key: String, viewModel: Model.Type, factory: some ViewModelFactory, slots: [String] = [],
        firstChildren: [String: String] = [:], addressable: Bool = true
    ) {
        self.name = name
        keyPattern = PathPattern(key)
        inputMembers = Model.Input.memberNames
        actions = Model.Action.names
        actionArguments = Dictionary(Model.Action.names.map { ($0, ArgumentProbe.arguments(of: $0, in: Model.Action.self)) }) { first, _ in first }
        self.slots = slots + firstChildren.keys.sorted().filter { !slots.contains($0) }
        self.firstChildren = firstChildren
        isAddressable = addressable
        hasSnapshot = Model.self is any SnapshotProviding.Type
        cellNames = (Model.self as? any SnapshotProviding.Type)?.cells.map(\.name) ?? []
        schemas = { SceneSchemas(of: Model.self, describer: $0) }
        make = { store, extras in
            _ = try store.get(Model.self, key: extras.key, scene: name, factory: factory, extras: extras)
        }
    }
}

/// The scenes an app offers, and the key of its root scene.
public struct SceneCatalogue: Sendable {
    /// The scenes, in the order they were declared.
    package let scenes: [Scene]
    /// The key of the scene every new context starts with.
    package let rootKey: String
    /// The scenes whose key pattern has no parameter, by their one key (a root such as
    /// `films` is found by one lookup): each only when no scene declared before it also takes
    /// that key, so that the first match still wins.
    private let scenesByLiteralKey: [String: Int]
    /// Whether some scene is the app's own (not addressable).
    package let hasInternalScenes: Bool

    /// Makes a catalogue.
    public init(scenes: [Scene], rootKey: String) {
        self.scenes = scenes
        self.rootKey = rootKey
        var byLiteralKey: [String: Int] = [:]
        for (index, scene) in scenes.enumerated() {
            guard let key = scene.keyPattern.literalPath, byLiteralKey[key] == nil else { continue }
            let segments = Self.segments(of: key)
            guard !scenes[..<index].contains(where: { $0.keyPattern.match(segments) != nil }) else { continue }
            byLiteralKey[key] = index
        }
        scenesByLiteralKey = byLiteralKey
        hasInternalScenes = scenes.contains { !$0.isAddressable }
    }

    private static func segments(of key: String) -> [String] {
        key.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether clients reach the view models under `key`: `false` when its scene is the app's
    /// own (see ``Scene/init(_:key:viewModel:factory:slots:firstChildren:addressable:)``),
    /// `true` otherwise (a key no scene has included, which is refused elsewhere).
    package func isAddressable(key: String) -> Bool {
        !hasInternalScenes || scene(forKey: key)?.scene.isAddressable ?? true
    }

    /// Whether clients reach the scene named `name`.
    package func isAddressable(sceneNamed name: String) -> Bool {
        !hasInternalScenes || scenes.first { $0.name == name }?.isAddressable ?? true
    }

    /// The scene whose key pattern matches `key`, with the parameters parsed from it.
    package func scene(forKey key: String) -> (scene: Scene, parameters: [String: String])? {
        if let index = scenesByLiteralKey[key] { return (scenes[index], [:]) }
        let segments = Self.segments(of: key)
        for scene in scenes {
            if let parameters = scene.keyPattern.match(segments) { return (scene, parameters) }
        }
        return nil
    }
}
