import MVVMCore

/// The names of a scene's own schemas in the app's contract (`GET /openapi.json`), made from
/// the scene's and its actions' names: names no Swift type can take.
enum SceneComponentNames {
    /// The state document: `Scene-<scene>-State`.
    static func state(_ scene: String) -> String { "Scene-\(ComponentNames.sanitized(scene))-State" }
    /// The input as a body: `Scene-<scene>-InputPatch`.
    static func inputPatch(_ scene: String) -> String { "Scene-\(ComponentNames.sanitized(scene))-InputPatch" }
    /// The snapshot with typed items: `Scene-<scene>-Snapshot`.
    static func snapshot(_ scene: String) -> String { "Scene-\(ComponentNames.sanitized(scene))-Snapshot" }
    /// The changes since a version, their items typed: `Scene-<scene>-SnapshotChanges`, with
    /// `Scene-<scene>-SnapshotDifference` and `Scene-<scene>-ItemPosition`.
    static func snapshotChanges(_ scene: String) -> String { "Scene-\(ComponentNames.sanitized(scene))-SnapshotChanges" }
    /// The difference of ``snapshotChanges(_:)``.
    static func snapshotDifference(_ scene: String) -> String { "Scene-\(ComponentNames.sanitized(scene))-SnapshotDifference" }
    /// An item's position in ``snapshotDifference(_:)``, with the item typed.
    static func itemPosition(_ scene: String) -> String { "Scene-\(ComponentNames.sanitized(scene))-ItemPosition" }
    /// An item of a kind of cell: `Scene-<scene>-Cell-<cell>`.
    static func cell(_ scene: String, _ cell: String) -> String { "Scene-\(ComponentNames.sanitized(scene))-Cell-\(ComponentNames.sanitized(cell))" }
    /// An action's body: `Scene-<scene>-Action-<action>`.
    static func action(_ scene: String, _ action: String) -> String {
        "Scene-\(ComponentNames.sanitized(scene))-Action-\(ComponentNames.sanitized(action))"
    }

    /// A reference to a component of the contract from outside it.
    static func link(_ component: String) -> String { "/openapi.json#/components/schemas/\(component)" }
}
