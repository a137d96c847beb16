import Foundation
import MVVMJSON

/// The values a view model chooses to keep across a restart of the server, in the spirit of
/// AndroidX's `SavedStateHandle`: typed, `Codable`, by name. A view model made again after a
/// restart (by its factory, with its saved input) reads them back, in its initializer or later.
///
/// Reached through ``ViewModelScope/savedState``, on the context's isolation as the view
/// model's other calls. A value that no longer decodes as asked (the app's types changed) reads
/// as `nil`. Outputs are not saved: they are recomputed by the view model from its input and
/// saved values.
public struct SavedStateHandle {
    private let key: String
    private weak var store: ViewModelStore?

    init(key: String, store: ViewModelStore?) {
        self.key = key
        self.store = store
    }

    /// The value saved under `name`, decoded as `Value`; setting `nil` removes it. A change is
    /// saved with the change of state it belongs to (before the request that made it is
    /// answered).
    public subscript<Value: Codable>(name: String, as type: Value.Type = Value.self) -> Value? {
        get {
            guard let bytes = store?.savedValues(of: key)[name], let value = JSONValue(json: Data(bytes)) else { return nil }
            return try? value.decode(Value.self)
        }
        nonmutating set {
            store?.setSavedValue(newValue.flatMap { try? JSONBytesEncoder.encode($0) }, named: name, of: key)
        }
    }
}
