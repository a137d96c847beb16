import Synchronization

/// The action names of an action enum that does not list them: the names its `Decodable`
/// conformance accepts, which are its coding keys (`rename` for `case rename(title: String)`).
enum ActionNames {
    private static let found = Mutex<[ObjectIdentifier: [String]]>([:])

    /// The names `Action` decodes, found once per type; empty when its decoding does not start
    /// with a keyed container of an enum of coding keys (then the type must list its names).
    static func of<Action: Decodable>(_ type: Action.Type) -> [String] {
        if let names = found.withLock({ $0[ObjectIdentifier(type)] }) { return names }
        let decoder = KeyCapture()
        _ = try? Action(from: decoder)
        found.withLock { $0[ObjectIdentifier(type)] = decoder.names }
        return decoder.names
    }

    /// A decoder that notes the keys of the first keyed container asked of it and then stops
    /// the decoding. Used by the one call that decodes with it.
    private final class KeyCapture: Decoder {
        private(set) var names: [String] = []
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            names = CodingKeyCases.all(of: type)?.map(\.stringValue) ?? []
            throw Stop()
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Stop() }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Stop() }

        /// Ends the decoding once the keys are known.
        struct Stop: Error {}
    }
}
