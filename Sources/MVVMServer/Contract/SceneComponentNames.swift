/// The names of a scene's own schemas in the app's contract (`GET /openapi.json`), made from
/// the scene's and its actions' names: names no Swift type can take.
enum SceneComponentNames {
    /// The state document: `Scene-<scene>-State`.
    static func state(_ scene: String) -> String { "Scene-\(part(scene))-State" }
    /// The input as a body: `Scene-<scene>-InputPatch`.
    static func inputPatch(_ scene: String) -> String { "Scene-\(part(scene))-InputPatch" }
    /// The snapshot with typed items: `Scene-<scene>-Snapshot`.
    static func snapshot(_ scene: String) -> String { "Scene-\(part(scene))-Snapshot" }
    /// The changes since a version, their items typed: `Scene-<scene>-SnapshotChanges`, with
    /// `Scene-<scene>-SnapshotDifference` and `Scene-<scene>-ItemPosition`.
    static func snapshotChanges(_ scene: String) -> String { "Scene-\(part(scene))-SnapshotChanges" }
    /// The difference of ``snapshotChanges(_:)``.
    static func snapshotDifference(_ scene: String) -> String { "Scene-\(part(scene))-SnapshotDifference" }
    /// An item's position in ``snapshotDifference(_:)``, with the item typed.
    static func itemPosition(_ scene: String) -> String { "Scene-\(part(scene))-ItemPosition" }
    /// An item of a kind of cell: `Scene-<scene>-Cell-<cell>`.
    static func cell(_ scene: String, _ cell: String) -> String { "Scene-\(part(scene))-Cell-\(part(cell))" }
    /// An action's body: `Scene-<scene>-Action-<action>`.
    static func action(_ scene: String, _ action: String) -> String { "Scene-\(part(scene))-Action-\(part(action))" }

    /// A reference to a component of the contract from outside it.
    static func link(_ component: String) -> String { "/openapi.json#/components/schemas/\(component)" }

    /// A name as part of a component name: characters other than letters, digits, `.`, `-`
    /// and `_` become `_`.
    private static func part(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    }
}
