import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON

/// The answers that carry published documents: a version as JSON with its entity tag, a
/// snapshot or its changes since a version, the events after a sequence number.
enum Documents {
    /// The state document, with its version as the ETag; 304 when `ifNoneMatch` names it.
    static func stateResponse(_ document: PublicationBoard.Document, ifNoneMatch: String? = nil) -> HTTPResponse {
        if let ifNoneMatch {
            let etag = entityTag(document.version)
            if ifNoneMatch.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") == etag
                    || $0.trimmingCharacters(in: .whitespaces) == "*"
            }) {
                return HTTPResponse(status: 304, headers: versionHeaders(document.version))
            }
        }
        return response(document)
    }

    /// A published document as JSON with its version as the ETag, prepared once per version.
    static func response(_ document: PublicationBoard.Document) -> HTTPResponse {
        .prepared(in: document.attachment) {
            versionedJSON(document.body, version: document.version)
        }
    }

    /// A version's entity tag: the version in quotes.
    static func entityTag(_ version: UInt64) -> String {
        "\"" + String(version) + "\""
    }

    /// The header fields of an answer about one version: its entity tag, and not to be stored
    /// by caches.
    static func versionHeaders(_ version: UInt64) -> [(name: String, value: String)] {
        [("ETag", entityTag(version)), ("Cache-Control", "no-store")]
    }

    /// JSON bytes of one version, with ``versionHeaders(_:)`` (the header fields built in one
    /// array with the content type, not joined to them: this runs once per published version).
    static func versionedJSON(_ body: Data, version: UInt64) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json"), ("ETag", entityTag(version)), ("Cache-Control", "no-store")], body: body)
    }

    /// Renders a snapshot document, or the changes since `since` when that version is kept.
    static func snapshotRenderer(board: PublicationBoard, key: String, since: UInt64?) -> @Sendable (PublicationBoard.Document) -> HTTPResponse {
        { document in
            guard since != nil, document.snapshot != nil else { return response(document) }
            let (_, body) = snapshotBody(board: board, key: key, since: since, document: document)
            return versionedJSON(body, version: document.version)
        }
    }

    /// A snapshot document's changes since `since` (`isChanges`), or the whole snapshot when
    /// `since` is `nil` or no longer kept.
    static func snapshotBody(board: PublicationBoard, key: String, since: UInt64?, document: PublicationBoard.Document) -> (
        isChanges: Bool, body: Data
    ) {
        guard let since, let now = document.snapshot else { return (false, document.body) }
        let old: Snapshot
        if since == document.version {
            old = now
        } else {
            let kept = board.history(.snapshot(key)).last { $0.version <= since }
            guard let keptSnapshot = kept?.snapshot, since < document.version else { return (false, document.body) }
            old = keptSnapshot
        }
        let changes = SnapshotChangesDocument(version: document.version, since: since, changes: SnapshotDifference(from: old, to: now))
        guard let body = try? JSONCoding.encode(changes) else { return (false, document.body) }
        return (true, body)
    }

    /// The events after `since` that are published (up to `version`, the event feed's
    /// published version), or `nil` when those after `since` are no longer kept.
    static func eventsDocument(_ events: EventLog, after since: UInt64, publishedUpTo version: UInt64) -> EventsDocument? {
        guard let list = events.events(after: since) else { return nil }
        let published = list.prefix { $0.seq <= version }
        return EventsDocument(version: max(version, published.last?.seq ?? 0), events: Array(published))
    }
}

/// The changes of a snapshot since a version: `{"kind": "changes", "version", "since", "changes"}`.
struct SnapshotChangesDocument: Encodable {
    let kind = "changes"
    let version: UInt64
    let since: UInt64
    let changes: SnapshotDifference
}

/// `{"version", "events": [...]}`: the events after the asked sequence number.
struct EventsDocument: Encodable {
    let version: UInt64
    let events: [ContextEvent]
}
