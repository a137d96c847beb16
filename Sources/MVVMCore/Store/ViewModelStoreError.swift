/// Why a store could not hand out a view model.
public struct ViewModelStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    private enum Reason: Equatable, Sendable {
        case noFactory(type: String, key: String)
        case typeMismatch(key: String, stored: String, requested: String)
        case unknownKey(String)
        case noContext(key: String)
    }

    private let reason: Reason

    /// No factory makes the asked type.
    package static func noFactory(type: String, key: String) -> Self {
        Self(reason: .noFactory(type: type, key: key))
    }

    /// The key holds a view model of another type.
    package static func typeMismatch(key: String, stored: String, requested: String) -> Self {
        Self(reason: .typeMismatch(key: key, stored: stored, requested: requested))
    }

    /// No scene's key pattern matches the key.
    public static func unknownKey(_ key: String) -> Self {
        Self(reason: .unknownKey(key))
    }

    /// The factory needs a context and the view model was asked for outside one.
    package static func noContext(key: String) -> Self {
        Self(reason: .noContext(key: key))
    }

    /// Whether this is the error for a key that matches no scene.
    package var isUnknownKey: Bool {
        if case .unknownKey = reason { true } else { false }
    }

    /// A sentence for the developer or the client.
    public var description: String {
        switch reason {
        case .noFactory(let type, let key): "no factory makes \(type) (key '\(key)')"
        case .typeMismatch(let key, let stored, let requested): "the key '\(key)' holds a \(stored), not a \(requested)"
        case .unknownKey(let key): "no scene has the key '\(key)'"
        case .noContext(let key): "the view model under '\(key)' can only be made inside a context"
        }
    }
}
