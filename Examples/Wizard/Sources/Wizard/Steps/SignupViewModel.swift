import MVVMServer

/// The wizard's container, the root: its `step` slot starts with the account step, so the
/// session's first answer already shows it. Its output names the steps, in order.
final class SignupViewModel: ViewModel {
    struct Output: Codable, Sendable, Equatable {
        var steps = WizardCoordinator.Step.allCases.map(\.rawValue)
    }

    static let key = "signup"
    static let slot = "step"
    static let scene = Scene(
        "signup", key: key, viewModel: SignupViewModel.self, factory: SingleViewModelFactory { _ in SignupViewModel() },
        firstChildren: [slot: WizardCoordinator.Step.account.rawValue])

    var input = EmptyInput()
    let output = Output()
}
