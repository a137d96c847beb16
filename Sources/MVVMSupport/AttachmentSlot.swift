import Synchronization

/// A place where whoever serves a published document keeps a prepared form of it, made once
/// and shared by every reader (the HTTP API keeps the document's response there, and the
/// runtime keeps its native response in the response's own slot, so that a state document
/// read a thousand times is turned into a response once).
///
/// Reading a filled slot takes no lock: one atomic load.
package final class AttachmentSlot: Sendable {
    /// The address of the attachment, retained once by the slot (released in deinit), or 0. It
    /// is set at most once and never replaced, so a reader that loads it may use it for as long
    /// as it holds the slot: the slot's own retain keeps it alive.
    @usableFromInline let stored = Atomic<UInt>(0)
    /// Set by a ``PublicationBoard`` when the document this slot belongs to stops being its
    /// topic's current one (replaced, removed, or the board closed), cleared if it is published
    /// again: the slot is also the document's identity, so a reader checks one atomic flag.
    package let isRetired = Atomic<Bool>(false)

    /// An empty slot.
    package init() {}

    deinit {
        if let pointer = UnsafeMutableRawPointer(bitPattern: stored.load(ordering: .acquiring)) {
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
    }

    /// The attachment of type `Attachment`, made by `make` the first time. When two threads
    /// make it at once, both get the one stored first; when `make` fails, a later call tries
    /// again. A slot holds one attachment type: asking for another type makes an unshared one.
    @inlinable
    package func value<Attachment: AnyObject & Sendable>(orMake make: () -> Attachment?) -> Attachment? {
        if let pointer = UnsafeMutableRawPointer(bitPattern: stored.load(ordering: .acquiring)) {
            return Self.attachment(at: pointer) ?? make()
        }
        guard let made = make() else { return nil }
        let retained = Unmanaged<AnyObject>.passRetained(made).toOpaque()
        let (stored, original) = stored.compareExchange(expected: 0, desired: UInt(bitPattern: retained), ordering: .acquiringAndReleasing)
        if stored { return made }
        Unmanaged<AnyObject>.fromOpaque(retained).release()
        return UnsafeMutableRawPointer(bitPattern: original).flatMap(Self.attachment(at:)) ?? made
    }

    @inlinable
    static func attachment<Attachment: AnyObject>(at pointer: UnsafeMutableRawPointer) -> Attachment? {
        let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
        // The exact class is checked by identity, which is cheaper than a dynamic cast.
        if type(of: object) == Attachment.self { return unsafeDowncast(object, to: Attachment.self) }
        return object as? Attachment
    }
}
