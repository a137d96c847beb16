/// A value that view models of one context share and observe (the seeds' RxSwift `Variable`
/// bound from one view model into another, as in `FindViewModelFactory`).
///
/// Used only on its context's isolation. Subscribers are called synchronously, in the order
/// they subscribed, each time the value is set to something different.
public final class ObservableValue<Value: Equatable> {
    private var subscribers: [Int: (Value) -> Void] = [:]
    private var nextID = 0

    /// The current value; setting a different one notifies every subscriber.
    public var value: Value {
        didSet {
            guard value != oldValue else { return }
            for id in subscribers.keys.sorted() { subscribers[id]?(value) }
        }
    }

    /// Makes the value.
    public init(_ value: Value) {
        self.value = value
    }

    /// Calls `handler` now with the current value and after every change, until the returned
    /// subscription is closed (hand it to the store with `addResource`, so clearing ends it).
    public func subscribe(_ handler: @escaping (Value) -> Void) -> Subscription {
        nextID += 1
        let id = nextID
        subscribers[id] = handler
        handler(value)
        return Subscription { [weak self] in self?.subscribers[id] = nil }
    }

    /// How many subscriptions are open.
    package var subscriberCount: Int {
        subscribers.count
    }

    /// An open subscription; closing it stops the notifications.
    public final class Subscription: ViewModelResource {
        private var cancel: (() -> Void)?

        init(_ cancel: @escaping () -> Void) {
            self.cancel = cancel
        }

        /// Stops the notifications.
        public func close() {
            cancel?()
            cancel = nil
        }
    }
}
