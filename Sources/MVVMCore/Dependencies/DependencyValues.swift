/// The one container of services given to every factory (SWAPI MVVM's `DependencyManager`,
/// RxSwift-MVVM-PoP's `Injector`), looked up by key as SwiftUI's environment is.
///
/// A scene declares what it needs with a ``DependencyKey`` and a computed property on
/// `DependencyValues`; tests swap in fakes by setting that property.
///
/// ```swift
/// private enum SwapiKey: DependencyKey { static let defaultValue: any SwapiService = EmbeddedSwapi() }
/// extension DependencyValues {
///     var swapi: any SwapiService { get { self[SwapiKey.self] } set { self[SwapiKey.self] = newValue } }
/// }
/// ```
public struct DependencyValues: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// A container holding every key's default value.
    public init() {}

    /// The service for a key: the one set, or the key's default.
    public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}

/// The key of one service in ``DependencyValues``, with the value used when none is set.
public protocol DependencyKey {
    /// The service's type, usually a protocol existential so that fakes fit.
    associatedtype Value: Sendable
    /// The service used when none was set.
    static var defaultValue: Value { get }
}
