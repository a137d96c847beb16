import MVVMServer

/// A sign-up wizard, one per session: a container (`signup`, the root) whose `step` slot starts
/// with the account step and moves on to the profile and the confirmation, each step keeping
/// what the user entered in the session's draft (a scene of the app's own) while the user goes
/// back and forth; a username check that takes two seconds of the app's clock; and a push to
/// `welcome/{username}` once the sign-up is submitted. The draft is kept in the session's saved
/// state.
@main
struct WizardApp {
    static let catalogue = SceneCatalogue(
        scenes: [
            SignupViewModel.scene, AccountViewModel.scene, ProfileViewModel.scene, ConfirmViewModel.scene,
            WelcomeViewModel.scene, SignupDraft.scene,
        ],
        rootKey: "signup")

    /// The services, made once for every session: the directory of usernames taken, which
    /// answers a check after `checkDelay` of `clock`.
    static func dependencies(_ base: DependencyValues, taken: Set<String> = ["admin", "root"], checkDelay: Duration = .seconds(2)) -> DependencyValues
    {
        var dependencies = base
        dependencies.usernames = UsernameDirectory(taken: taken, delay: checkDelay, clock: base.clock)
        return dependencies
    }

    /// Serves the wizard with the settings every app takes (`--help` lists them).
    static func main() async {
        await Application.main(name: "wizard", catalogue: catalogue) { base in dependencies(base) }
    }
}
