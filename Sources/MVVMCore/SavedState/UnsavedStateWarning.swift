import Logging
import Synchronization

/// Warns, once per scene, that view models write their saved state (``SavedStateHandle``) in
/// an app that saves no sessions: what they write would be lost with the process, silently.
package final class UnsavedStateWarning: Sendable {
    private let logger: Logger
    private let isSaving = Atomic<Bool>(false)
    private let warnedScenes = Mutex<Set<String>>([])

    /// A warning logged to `logger`; the app counts as saving nothing until ``setSaving(_:)``.
    package init(logger: Logger) {
        self.logger = logger
    }

    /// Whether the app's sessions are saved now (a state store is open).
    package func setSaving(_ saving: Bool) {
        isSaving.store(saving, ordering: .relaxed)
    }

    /// A view model of `scene` wrote its saved state: warns when nothing saves it and the scene
    /// was not warned of yet.
    package func noteWrite(scene: String) {
        guard !isSaving.load(ordering: .relaxed) else { return }
        guard warnedScenes.withLock({ $0.insert(scene).inserted }) else { return }
        logger.warning(
            "A view model of scene \(scene) writes its saved state, but this app saves no sessions (--state none, or a configuration without storage): what it writes is lost when the server stops.",
            metadata: ["scene": .string(scene)])
    }
}
