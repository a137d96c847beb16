/// A kind of storage named by a URL, such as `postgres://…`, for the `--state` setting of
/// ``SessionStorage``: an app that links a store's module passes its scheme to the entry point,
/// and `--state` then takes URLs of that scheme.
public struct SessionStorageScheme: Sendable {
    /// The URL schemes it takes, without `://` (`postgres`, `postgresql`).
    public let names: [String]
    /// The storage at a URL of one of ``names``.
    public let storage: @Sendable (_ url: String) -> SessionStorage

    /// A scheme taking URLs that start with one of `names` followed by `://`.
    public init(names: [String], storage: @escaping @Sendable (_ url: String) -> SessionStorage) {
        self.names = names
        self.storage = storage
    }

    /// Whether `location` is a URL of this scheme.
    public func takes(_ location: String) -> Bool {
        names.contains { location.hasPrefix($0 + "://") }
    }
}
