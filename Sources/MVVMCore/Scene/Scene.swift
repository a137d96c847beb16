/// One scene of an app, as a module: its name, the pattern of its store keys, its view
/// model's type, the factory that makes it, and the slots it offers to embedded children.
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
    /// Whether it publishes a diffable snapshot.
    package let hasSnapshot: Bool
    let make: @Sendable (ViewModelStore, CreationExtras) throws -> Void

    /// Declares a scene whose view models are made by `factory`.
    public init<Model: ViewModel>(_ name: String, key: String, viewModel: Model.Type, factory: some ViewModelFactory, slots: [String] = []) {
        self.name = name
        keyPattern = PathPattern(key)
        inputMembers = Model.Input.memberNames
        actions = Model.Action.names
        actionArguments = Dictionary(Model.Action.names.map { ($0, ArgumentProbe.arguments(of: $0, in: Model.Action.self)) }) { first, _ in first }
        self.slots = slots
        hasSnapshot = Model.self is any SnapshotProviding.Type
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
    }

    private static func segments(of key: String) -> [String] {
        key.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
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
