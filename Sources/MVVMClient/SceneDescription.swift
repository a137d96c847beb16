/// One scene of the app's catalogue, as `GET /scenes` describes it.
public struct SceneDescription: Sendable, Equatable {
    /// The scene's name.
    public var name: String
    /// The pattern of its keys, e.g. `film/{id}`.
    public var keyPattern: String
    /// The names of its input members.
    public var input: [String]
    /// The names of its actions.
    public var actions: [String]
    /// The slots of a container scene.
    public var slots: [String]
    /// Whether it publishes a diffable snapshot.
    public var hasSnapshot: Bool

    init(_ scene: Components.Schemas.CatalogueScene) {
        name = scene.name
        keyPattern = scene.keyPattern
        input = scene.input
        actions = scene.actions
        slots = scene.slots
        hasSnapshot = scene.snapshot
    }
}
