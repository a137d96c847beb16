import Foundation
import MVVMSupport

extension PublicationBoard {
    /// One encoded document and its version.
    package struct Document: Sendable {
        /// The version.
        package let version: UInt64
        /// The snapshot the document encodes, for snapshot topics (differences are computed from it).
        package let snapshot: Snapshot?
        /// Where a server keeps its prepared form of this document, shared by every reader.
        package let attachment = AttachmentSlot()
        /// The bytes: given when the document was made, or written on first read (a snapshot's:
        /// many are never read) and kept in a slot.
        private let bytes: Bytes

        private enum Bytes: Sendable {
            case given(Data)
            case writtenOnFirstRead(AttachmentSlot)
        }

        /// Makes a document from its encoded bytes.
        package init(version: UInt64, body: Data, snapshot: Snapshot? = nil) {
            self.version = version
            self.bytes = .given(body)
            self.snapshot = snapshot
        }

        /// Makes a snapshot's document; its bytes (``SnapshotDocument``'s) are written when first
        /// read, once, and then shared by every reader.
        package init(version: UInt64, snapshot: Snapshot) {
            self.version = version
            self.bytes = .writtenOnFirstRead(AttachmentSlot())
            self.snapshot = snapshot
        }

        /// The encoded bytes, shared by every reader.
        package var body: Data {
            switch bytes {
            case .given(let data):
                return data
            case .writtenOnFirstRead(let slot):
                let written = slot.value { [version, snapshot] in
                    EncodedBytes(SnapshotDocument(version: version, sections: snapshot?.sections ?? []).jsonData)
                }
                return written?.data ?? Data()
            }
        }
    }

    /// Bytes written once and kept in a document's slot.
    fileprivate final class EncodedBytes: Sendable {
        let data: Data

        init(_ data: Data) {
            self.data = data
        }
    }
}
