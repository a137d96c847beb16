/// The cases of a coding-key enumeration, such as the `CodingKeys` that Swift synthesizes for a
/// `Decodable` enum: found from the type alone, since coding keys are not `CaseIterable`.
enum CodingKeyCases {
    /// Every case of `Key` in declaration order, when `Key` is an enum whose cases carry no values
    /// (as synthesized coding keys are); `nil` for any other key type.
    static func all<Key: CodingKey>(of type: Key.Type) -> [Key]? {
        guard let keys = EnumCases.all(of: type) else { return nil }
        // Each key must read back as itself: a key type that is not what it seemed is refused.
        let names = keys.map(\.stringValue)
        guard Set(names).count == names.count,
            names.allSatisfy({ Key(stringValue: $0)?.stringValue == $0 })
        else { return nil }
        return keys
    }
}
