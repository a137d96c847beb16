import Foundation

/// The files of the inspector page, shipped as resources of the framework: its HTML, its
/// script and its style sheet, read once.
struct InspectorAssets: Sendable {
    let page: Data
    let script: Data
    let styles: Data

    /// The files from the module's resources; a short page saying what is missing when one is.
    static func load() -> InspectorAssets {
        func file(_ name: String, _ type: String) -> Data? {
            ModuleResource.data(name, type, subdirectory: "inspector")
        }
        guard let page = file("index", "html"), let script = file("inspector", "js"), let styles = file("inspector", "css") else {
            return InspectorAssets(
                page: Data("<!doctype html><title>Inspector</title><p>The inspector's files are missing from this build.</p>".utf8),
                script: Data(), styles: Data())
        }
        return InspectorAssets(page: page, script: script, styles: styles)
    }

    /// What the page may load and run: its own script and styles, requests to this server, no
    /// inline script or style, no frames, no plugins.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}
