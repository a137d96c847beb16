import MVVMCore

/// The catalogue as `GET /scenes` serves it.
struct CatalogueDocument: Encodable {
    struct Entry: Encodable {
        let name: String
        let keyPattern: String
        let input: [String]
        let actions: [String]
        let actionArguments: [String: [ActionArgument]]
        let slots: [String]
        let snapshot: Bool
    }

    let root: String
    let scenes: [Entry]

    init(_ catalogue: SceneCatalogue) {
        root = catalogue.rootKey
        scenes = catalogue.scenes.filter(\.isAddressable).map {
            Entry(name: $0.name, keyPattern: $0.keyPattern.description, input: $0.inputMembers, actions: $0.actions, actionArguments: $0.actionArguments, slots: $0.slots, snapshot: $0.hasSnapshot)
        }
    }
}
