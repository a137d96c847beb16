/// The brain of one scene: typed input in, an output that is always defined, a lifecycle.
///
/// A view model is owned by its context's `ViewModelStore` and only ever runs on its
/// context's actor, one call at a time, as a UIKit view model runs on the main thread:
/// view models of one context never run concurrently; different contexts run in parallel.
///
/// The store drives it:
/// 1. it is made by a ``ViewModelFactory`` (its output must already be valid);
/// 2. ``load()`` runs once after it is set up (lifecycle `loading`, then `loaded`);
/// 3. each time the client changes ``input``, ``inputDidChange()`` recomputes the output;
///    this happens even while ``load()`` is suspended, so no input is ever dropped;
/// 4. ``perform(_:)`` runs each action the client sends;
/// 5. ``onCleared()`` runs last, when the store clears it.
///
/// After every call the store encodes the scene's state (``input``, ``output``, lifecycle); a
/// change of the encoded bytes gives a new version. A change of the output also gives one
/// `didUpdate` event naming the output members that changed, once the view model is loaded.
public protocol ViewModel: AnyObject, SendableMetatype {
    /// What the client may set; merged member by member.
    associatedtype Input: ViewModelInput = EmptyInput
    /// What the client reads; always defined.
    associatedtype Output: Codable & Sendable
    /// The actions the client may send.
    associatedtype Action: ViewModelAction = NoAction

    /// The current input. The store sets it and then calls ``inputDidChange()``.
    var input: Input { get set }
    /// The current output, valid from the moment the view model exists.
    var output: Output { get }

    /// Checks an input the client sent before it replaces ``input``: throw a ``Refusal``
    /// (`.input(member, reason)`) to refuse it, and the client gets a 422 and nothing changes.
    /// It is called for every input request, also one that changes nothing (a value sent that
    /// equals the current one), with the input as it would be once merged.
    func validate(_ input: Input) throws
    /// Checks an input the client sent, as ``validate(_:)`` does, knowing which members the
    /// client sent in this request (`sent`, named by the input's coding keys): the others hold
    /// their current values. Implement this one instead of ``validate(_:)`` to refuse a member
    /// only when it was sent, `{"username": ""}` say, without making the input's members
    /// optional. By default it calls ``validate(_:)``.
    func validate(_ input: Input, sent: Set<String>) throws
    /// Recomputes the output after the input changed. Synchronous: inputs are latest-wins.
    func inputDidChange()
    /// Loads what the scene needs, once, after setup. Cancelled when the view model unloads.
    func load() async throws
    /// Performs an action sent by the client (a tap, a selection). Throw a ``Refusal`` to
    /// refuse it (nothing changes, the client gets a 422); any other error is a failure, kept
    /// in the state's `error`.
    func perform(_ action: Action) async throws
    /// The view model's own cleanup, called after its tasks are cancelled and its resources closed.
    func onCleared()
}

extension ViewModel {
    /// Takes every input.
    public func validate(_ input: Input) throws {}
    /// Calls ``validate(_:)``.
    public func validate(_ input: Input, sent: Set<String>) throws { try validate(input) }
    /// Does nothing.
    public func inputDidChange() {}
    /// Loads nothing.
    public func load() async throws {}
    /// Does nothing.
    public func onCleared() {}
}

extension ViewModel where Action == NoAction {
    /// A view model without actions is never asked to perform one.
    public func perform(_ action: NoAction) async throws {}
}

/// A view model that can be made without arguments, for ``DefaultViewModelFactory``
/// (the seed's `Initializable`).
public protocol InitializableViewModel: ViewModel {
    /// Makes the view model with its initial, valid output.
    init()
}
