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
    /// The arguments of each action, by the action's name.
    public var actionArguments: [String: [ActionArgumentDescription]]
    /// The slots of a container scene.
    public var slots: [String]
    /// Whether it publishes a diffable snapshot.
    public var hasSnapshot: Bool

    init(_ scene: Components.Schemas.CatalogueScene) {
        name = scene.name
        keyPattern = scene.keyPattern
        input = scene.input
        actions = scene.actions
        actionArguments = scene.actionArguments.additionalProperties.mapValues { $0.map(ActionArgumentDescription.init) }
        slots = scene.slots
        hasSnapshot = scene.snapshot
    }
}

/// One argument of an action, as `GET /scenes` describes it.
public struct ActionArgumentDescription: Sendable, Equatable {
    /// The argument's name in the arguments object.
    public var name: String
    /// Its JSON type: `string`, `integer`, `number`, `boolean`, `array` or `object`.
    public var type: String
    /// Whether a call must send it.
    public var isRequired: Bool
    /// The values it takes, for an enumeration of strings.
    public var values: [String]?

    /// An argument as described.
    public init(name: String, type: String, isRequired: Bool, values: [String]? = nil) {
        self.name = name
        self.type = type
        self.isRequired = isRequired
        self.values = values
    }

    init(_ argument: Components.Schemas.ActionArgument) {
        self.init(name: argument.name, type: argument._type.rawValue, isRequired: argument.required, values: argument.values)
    }
}
