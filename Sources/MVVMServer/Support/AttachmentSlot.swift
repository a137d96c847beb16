import Synchronization

/// A place where whoever serves a published document keeps a prepared form of it, made once
/// and shared by every reader (the HTTP runtime keeps its native response there, so that a
/// state document read a thousand times is turned into a response once).
public final class AttachmentSlot: Sendable {
    private let stored = Mutex<AnyObject?>(nil)

    /// An empty slot.
    public init() {}

    /// The attachment of type `Attachment`, made by `make` the first time (or again when `make`
    /// failed before).
    public func value<Attachment: AnyObject & Sendable>(orMake make: () -> Attachment?) -> Attachment? {
        stored.withLock { stored in
            if let existing = stored as? Attachment { return existing }
            let made = make()
            stored = made
            return made
        }
    }
}
