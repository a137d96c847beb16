/// What a factory learns about one creation (AndroidX's `CreationExtras`): the key, the
/// parameters parsed from it, the context that will own the view model, and its services.
///
/// Factories hold no state; everything that varies per creation arrives here.
public struct CreationExtras {
    /// The store key, e.g. `film/2`.
    public let key: String
    /// Parameters parsed from the key by the scene's key pattern, e.g. `["id": "2"]`.
    public let parameters: [String: String]
    /// The context that will own the view model, when it is made inside one.
    public let context: ViewModelContext?
    /// The services.
    public let dependencies: DependencyValues
    private var custom: [ObjectIdentifier: Any] = [:]

    /// Makes the extras of one creation.
    public init(key: String, parameters: [String: String] = [:], context: ViewModelContext? = nil, dependencies: DependencyValues = DependencyValues()) {
        self.key = key
        self.parameters = parameters
        self.context = context
        self.dependencies = dependencies
    }

    /// A typed extra of your own.
    public subscript<Value>(_ key: CreationExtraKey<Value>) -> Value? {
        get { custom[ObjectIdentifier(CreationExtraKey<Value>.self)] as? Value }
        set { custom[ObjectIdentifier(CreationExtraKey<Value>.self)] = newValue }
    }

    /// An integer parameter of the key, e.g. `extras.intParameter("id")` for `film/{id}`.
    public func intParameter(_ name: String) -> Int? {
        parameters[name].flatMap { Int($0) }
    }
}

/// The key of a typed creation extra; one key per value type.
public struct CreationExtraKey<Value> {
    /// Makes the key.
    public init() {}
}
