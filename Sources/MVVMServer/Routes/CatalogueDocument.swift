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
        let contract: Contract
    }

    /// Where the scene's schemas are in the app's contract (`GET /openapi.json`).
    struct Contract: Encodable {
        let state: String
        let input: String?
        let snapshot: String?
        let actions: [String: String]

        init(_ scene: Scene) {
            state = SceneComponentNames.link(SceneComponentNames.state(scene.name))
            input = scene.inputMembers.isEmpty ? nil : SceneComponentNames.link(SceneComponentNames.inputPatch(scene.name))
            snapshot = scene.cellNames.isEmpty ? nil : SceneComponentNames.link(SceneComponentNames.snapshot(scene.name))
            actions = Dictionary(
                uniqueKeysWithValues: scene.actions.map { ($0, SceneComponentNames.link(SceneComponentNames.action(scene.name, $0))) })
        }
    }

    let root: String
    let scenes: [Entry]

    init(_ catalogue: SceneCatalogue) {
        root = catalogue.rootKey
        scenes = catalogue.scenes.filter(\.isAddressable).map {
            Entry(
                name: $0.name, keyPattern: $0.keyPattern.description, input: $0.inputMembers, actions: $0.actions,
                actionArguments: $0.actionArguments, slots: $0.slots, snapshot: $0.hasSnapshot,
                contract: Contract($0))
        }
    }
}
