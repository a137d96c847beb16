import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON

/// `POST /replays`: a journal replayed on a new session, entry by entry, settling between them,
/// each answer compared with the one recorded.
///
/// Left out of the comparison: every member named `version`, and the recorded session's id
/// wherever it appears (paths of the navigation, say), which stands for the new session's.
/// A document recorded before its scene had loaded (`"lifecycle"` `initialized`, `setuped` or
/// `loading`) caught a load in flight, which the replay lets finish: its `lifecycle`, `output`
/// and `error` are left out too, and only its status, input and the rest are compared.
struct Replay {
    /// The answer.
    struct Document: Encodable {
        /// The new session's id.
        let session: String
        /// How many entries were replayed (up to and with the first that diverged).
        let steps: Int
        /// The first entry whose answer differed; `nil` when none did.
        let divergence: Divergence?
        /// Whether work of the new session still waited for the test clock when the replay
        /// ended: it settles only once the clock moves.
        let waitingForClock: Bool

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(session, forKey: .session)
            try container.encode(steps, forKey: .steps)
            if let divergence { try container.encode(divergence, forKey: .divergence) } else { try container.encodeNil(forKey: .divergence) }
            try container.encode(waitingForClock, forKey: .waitingForClock)
        }

        private enum CodingKeys: String, CodingKey { case session, steps, divergence, waitingForClock }
    }

    /// Where a replay's answer first differed from the recorded one.
    struct Divergence: Encodable {
        /// The entry's number in the journal.
        let seq: Int
        /// The recorded status and answer.
        let expected: Answer
        /// The replay's status and answer.
        let actual: Answer
        /// The members that differ, as dotted paths (`status` when the statuses do).
        let members: [String]
    }

    /// A status with its document.
    struct Answer: Encodable {
        let status: Int
        let answer: JSONValue
    }

    /// The most entries a replay takes: the bound of a journal.
    static let maxEntries = SessionJournal.capacity

    let testing: TestingMode
    let sessions: Sessions

    /// The journal a body holds, checked before anything runs.
    /// - Throws: 422 `invalid-journal` naming what is wrong: not a journal, too many entries,
    ///   a method or a path that no recorded request can have, an unknown scene.
    func journal(from body: Data) throws -> JournalDocument {
        let journal: JournalDocument
        do {
            journal = try JSONCoding.decode(JournalDocument.self, from: body)
        } catch {
            let reason = String(describing: error).trimmingCharacters(in: CharacterSet(charactersIn: ". "))
            throw HTTPError(.invalidJournal, detail: "The body is not a journal as GET /sessions/{id}/journal exports it: \(reason).")
        }
        guard journal.dropped >= 0 else {
            throw HTTPError(.invalidJournal, detail: "dropped counts entries: it cannot be \(journal.dropped).", member: "dropped")
        }
        guard journal.entries.count <= Self.maxEntries else {
            throw HTTPError(.invalidJournal, detail: "A journal holds at most \(Self.maxEntries) entries, not \(journal.entries.count).", member: "entries")
        }
        for (index, entry) in journal.entries.enumerated() {
            if let problem = problem(with: entry) {
                throw HTTPError(.invalidJournal, detail: "Entry \(index) (seq \(entry.seq)): \(problem)", member: "entries[\(index)]")
            }
        }
        return journal
    }

    /// What makes `entry` one that no request to a session of this app records; `nil` when
    /// nothing does.
    private func problem(with entry: SessionJournal.Entry) -> String? {
        guard (100...599).contains(entry.status) else { return "status \(entry.status) is not an HTTP status." }
        let path = entry.path
        guard path.hasPrefix("/"), !path.contains("?"), !path.contains("#"), !path.contains("//") else {
            return "the path \(path.prefix(80)) is not a path below a session."
        }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !segments.contains(where: { $0 == "." || $0 == ".." || $0.isEmpty }) else {
            return "the path \(path.prefix(80)) leaves the session."
        }
        switch (entry.method, segments.first) {
        case ("POST", "navigation") where segments == ["navigation", "back"]:
            return nil
        case ("DELETE", "store") where segments == ["store"]:
            return nil
        case ("POST", "scenes"):
            let key: [String]
            if segments.count >= 3, segments.last == "input" {
                key = Array(segments[1..<(segments.count - 1)])
            } else if segments.count >= 4, segments[segments.count - 2] == "actions" {
                key = Array(segments[1..<(segments.count - 2)])
            } else {
                return "POST \(path.prefix(80)) is neither an input nor an action of a scene."
            }
            let decoded = key.map { $0.removingPercentEncoding ?? $0 }.joined(separator: "/")
            guard sessions.catalogue.scene(forKey: decoded) != nil else { return "no scene of this app has the key \(decoded.prefix(80))." }
            return nil
        default:
            return "\(entry.method.prefix(16)) \(path.prefix(80)) is not a request a journal records (inputs, actions, going back, clearing the store)."
        }
    }

    /// Replays `journal` on a new session, waiting up to `wait` for the work to be quiet before
    /// each entry and after the last.
    func run(_ journal: JournalDocument, settlingFor wait: Duration) async throws -> Document {
        guard let routing = testing.routing else {
            throw HTTPError.unavailable("The server is not serving yet.", retryAfterSeconds: 1)
        }
        let created = await routing.respond(to: HTTPRequest(method: "POST", path: "/sessions"))
        guard created.status == 201, let id = created.headers.first(where: { $0.name == "Location" })?.value.split(separator: "/").last.map(String.init) else {
            // No session could be made (every slot busy, say): that answer is the replay's.
            throw ReplyInstead(reply: .response(created))
        }
        var steps = 0
        for entry in journal.entries {
            _ = await testing.waitUntilQuiet(before: .now + wait)
            let body = try entry.requestBody()
            var headers: [String: String] = [:]
            if !body.isEmpty { headers["Content-Type"] = "application/json" }
            let response = await routing.respond(to: HTTPRequest(method: entry.method, path: "/sessions/" + id + entry.path, headers: headers, body: body))
            steps += 1
            let actual = response.body.isEmpty ? JSONValue.null : StrictJSON.parse(response.body) ?? .string(String(decoding: response.body, as: UTF8.self))
            let members = (response.status == entry.status ? [] : ["status"])
                + Self.differences(expected: entry.answer, actual: actual, recordedSession: journal.session, session: id)
            if !members.isEmpty {
                let divergence = Divergence(seq: entry.seq, expected: Answer(status: entry.status, answer: entry.answer),
                                            actual: Answer(status: response.status, answer: actual), members: members)
                return Document(session: id, steps: steps, divergence: divergence, waitingForClock: await waitsForClock(id))
            }
        }
        _ = await testing.waitUntilQuiet(before: .now + wait)
        return Document(session: id, steps: steps, divergence: nil, waitingForClock: await waitsForClock(id))
    }

    /// Whether the session `id` has work running while the test clock has waits: work that
    /// settles only once the clock moves.
    private func waitsForClock(_ id: String) async -> Bool {
        guard testing.clock.sleeperCount > 0, case .live(let session) = sessions.lookup(id) else { return false }
        return await session.context.run { $0.hasRunningWork }
    }

    /// The members where `actual` differs from `expected`, as dotted paths, by the rules of the
    /// type's documentation.
    static func differences(expected: JSONValue, actual: JSONValue, recordedSession: String, session: String) -> [String] {
        var differences = JSONDifferences()
        differences.comparesArrayItems = true
        differences.renaming = (recordedSession, session)
        differences.ignoredMembers = { members in
            if case .string(let lifecycle) = members["lifecycle"], beforeLoad.contains(lifecycle) {
                return ["version", "lifecycle", "output", "error"]
            }
            return ["version"]
        }
        return differences.paths(expected: expected, actual: actual)
    }

    /// The lifecycles of a scene whose load has not finished.
    private static let beforeLoad = Set([Lifecycle.State.initialized, .setuped, .loading].map(\.rawValue))
}
