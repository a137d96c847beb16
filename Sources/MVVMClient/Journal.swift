import Foundation
import OpenAPIRuntime

/// A session's journal as a server in testing mode exports it (`GET /sessions/{id}/journal`):
/// the requests that changed the session, with their answers, oldest first. Edit it and give
/// it to ``MVVMClient/replay(_:wait:)`` to see where behaviour diverges.
public struct Journal: Sendable, Equatable {
    /// One recorded request.
    public struct Entry: Sendable, Equatable {
        /// Its number in the session's journal, from 1.
        public var seq: Int
        /// `POST` or `DELETE`.
        public var method: String
        /// Its path below the session, e.g. `/scenes/car/input`.
        public var path: String
        /// Its JSON body (`null` when it had none, or when it was not JSON).
        public var body: Data
        /// The body as sent when it was not JSON (a malformed input), which a replay sends
        /// again instead of ``body``; `nil` otherwise.
        public var rawBody: String?
        /// The answer's status.
        public var status: Int
        /// The JSON document answered (`null` when none).
        public var answer: Data
    }

    /// The id of the session recorded.
    public var session: String
    /// How many of the oldest entries the server dropped to keep its bound.
    public var dropped: Int
    /// The entries, oldest first.
    public var entries: [Entry]

    init(_ document: Components.Schemas.Journal) throws {
        session = document.session
        dropped = document.dropped
        let encoder = JSONEncoder()
        entries = try document.entries.map { entry in
            Entry(
                seq: entry.seq, method: entry.method.rawValue, path: entry.path, body: try encoder.encode(entry.body),
                rawBody: entry.rawBody, status: entry.status, answer: try encoder.encode(entry.answer))
        }
    }

    /// The journal as the API takes it.
    var document: Components.Schemas.Journal {
        get throws {
            let decoder = JSONDecoder()
            return Components.Schemas.Journal(
                session: session, dropped: dropped,
                entries: try entries.map { entry in
                    guard let method = Components.Schemas.JournalEntry.MethodPayload(rawValue: entry.method) else {
                        throw JournalError.unknownMethod(entry.method)
                    }
                    return Components.Schemas.JournalEntry(
                        seq: entry.seq, method: method, path: entry.path,
                        body: try decoder.decode(OpenAPIValueContainer.self, from: entry.body),
                        rawBody: entry.rawBody, status: entry.status, answer: try decoder.decode(OpenAPIValueContainer.self, from: entry.answer))
                })
        }
    }
}

/// A journal the client cannot send.
public enum JournalError: Error, Equatable {
    /// An entry's method is not one a journal records (`POST`, `DELETE`).
    case unknownMethod(String)
}

/// What `POST /replays` answered: the session the journal was replayed on, and where its
/// answers first differed from the recorded ones.
public struct ReplayOutcome: Sendable {
    /// Where a replayed answer differed.
    public struct Divergence: Sendable, Equatable {
        /// The entry's number in the journal.
        public let seq: Int
        /// What differs, as paths into the two answers: `status` when the HTTP statuses do,
        /// `answer.output.count` for a member of the answer.
        public let members: [String]
        /// The recorded status, and the replay's.
        public let expectedStatus: Int, actualStatus: Int
    }

    /// The new session, which stays for the test to read.
    public let session: SessionClient
    /// How many entries were replayed, the diverging one included.
    public let steps: Int
    /// The first divergence, where the replay stopped; `nil` when every answer matched.
    public let divergence: Divergence?
    /// The first answer that differed only in a scene's lifecycle (`answer.lifecycle`), a load
    /// the recording caught in flight, say: its output was not compared, and the replay went
    /// on. `nil` when there was none.
    public let lifecycleDivergence: Divergence?
    /// Whether work of the new session still waited for the test clock when the replay ended.
    public let waitingForClock: Bool
}
