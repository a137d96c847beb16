import Synchronization

/// A place where whoever serves a published document keeps a prepared form of it, made once
/// and shared by every reader (the HTTP API keeps the document's response there, and the
/// runtime keeps its native response in the response's own slot, so that a state document
/// read a thousand times is turned into a response once).
///
/// Reading a filled slot takes no lock: one atomic load.
public final class AttachmentSlot: Sendable {
    private let stored = AtomicLazyReference<any AnyObject & Sendable>()

    /// An empty slot.
    public init() {}

    /// The attachment of type `Attachment`, made by `make` the first time. When two threads
    /// make it at once, both get the one stored first; when `make` fails, a later call tries
    /// again. A slot holds one attachment type: asking for another type makes an unshared one.
    public func value<Attachment: AnyObject & Sendable>(orMake make: () -> Attachment?) -> Attachment? {
        if let existing = stored.load() {
            // The exact class is checked by identity, which is cheaper than a dynamic cast.
            if type(of: existing) == Attachment.self { return unsafeDowncast(existing, to: Attachment.self) }
            return existing as? Attachment ?? make()
        }
        guard let made = make() else { return nil }
        return stored.storeIfNil(made) as? Attachment ?? made
    }
}
