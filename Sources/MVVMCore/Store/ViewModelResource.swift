/// A resource a view model holds (a subscription, a file, a timer) that the store closes when
/// the view model is cleared (AndroidX's `AutoCloseable`s added with `addCloseable`).
public protocol ViewModelResource: AnyObject {
    /// Releases the resource. Called once.
    func close()
}
