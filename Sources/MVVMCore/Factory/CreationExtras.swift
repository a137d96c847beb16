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
    package let context: ViewModelContext?
    /// The services.
    public let dependencies: DependencyValues
    private var custom: [ObjectIdentifier: Any] = [:]
    /// Resources the factory handed over; the store attaches them to the new view model.
    let resources = ResourceBag()
    /// The scope the store gives the view model being made.
    var madeScope: ViewModelScope?

    /// Makes the extras of one creation.
    /// Makes the extras of one creation outside a context (a store used on its own).
    public init(key: String, parameters: [String: String] = [:], dependencies: DependencyValues = DependencyValues()) {
        self.init(key: key, parameters: parameters, context: nil, dependencies: dependencies)
    }

    /// Makes the extras of one creation in `context`.
    package init(key: String, parameters: [String: String] = [:], context: ViewModelContext?, dependencies: DependencyValues = DependencyValues()) {
        self.key = key
        self.parameters = parameters
        self.context = context
        self.dependencies = dependencies
    }

    /// A typed extra of your own.
    package subscript<Value>(_ key: CreationExtraKey<Value>) -> Value? {
        get { custom[ObjectIdentifier(CreationExtraKey<Value>.self)] as? Value }
        set { custom[ObjectIdentifier(CreationExtraKey<Value>.self)] = newValue }
    }

    /// Hands a resource (e.g. a subscription the factory made) to the view model being made:
    /// it is closed when that view model is cleared, or at once when the creation fails.
    public func addResource(_ resource: some ViewModelResource) {
        resources.items.append(resource)
    }

    /// The handle of the view model being made on its place in its context (``ViewModelScope``):
    /// hand it to the view model.
    public var scope: ViewModelScope {
        madeScope ?? ViewModelScope(key: key, store: nil, context: context)
    }

    /// The context that will own the view model.
    /// - Throws: ``ViewModelStoreError`` when the view model is made outside a context.
    package func requireContext() throws -> ViewModelContext {
        guard let context else { throw ViewModelStoreError.noContext(key: key) }
        return context
    }

    /// An integer parameter of the key, e.g. `extras.intParameter("id")` for `film/{id}`.
    public func intParameter(_ name: String) -> Int? {
        parameters[name].flatMap { Int($0) }
    }
}

/// The key of a typed creation extra; one key per value type.
package struct CreationExtraKey<Value> {
    /// Makes the key.
    package init() {}
}

/// The resources a factory hands over during one creation.
final class ResourceBag {
    var items: [any ViewModelResource] = []
}
