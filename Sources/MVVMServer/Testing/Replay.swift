import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON

/// `POST /replays`: a journal replayed on a new session, entry by entry, settling between them,
/// each answer compared with the one recorded.
///
/// Left out of the comparison: every member named `version`, and the recorded session's id
/// wherever it appears (paths of the navigation, say), which stands for the new session's.
/// A scene's document is compared whole when the replayed one stands at the same point of its
/// lifecycle, first touches before its load included. When its `lifecycle` differs (the
/// recording caught a load in flight that the replay let finish, say), its `output` and `error`
/// are left out, the rest is compared, and the lifecycle difference is reported apart, as a
/// divergence of its own kind that does not stop the replay.
///
/// A divergence names what differs as paths into the answers it shows: `status` for the HTTP
/// status, `answer.output.count` for a member of the answer.
struct Replay {
    /// The answer.
    struct Document: Encodable {
        /// The new session's id.
        let session: String
        /// How many entries were replayed (up to and with the first that diverged).
        let steps: Int
        /// The first entry whose answer differed; `nil` when none did.
        let divergence: Divergence?
        /// The first entry whose answer differed only in a scene's lifecycle (and so in what
        /// depends on it, its output and error); `nil` when none did.
        let lifecycleDivergence: Divergence?
        /// Whether work of the new session still waited for the test clock when the replay
        /// ended: it settles only once the clock moves.
        let waitingForClock: Bool

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(session, forKey: .session)
            try container.encode(steps, forKey: .steps)
            if let divergence { try container.encode(divergence, forKey: .divergence) } else { try container.encodeNil(forKey: .divergence) }
            if let lifecycleDivergence {
                try container.encode(lifecycleDivergence, forKey: .lifecycleDivergence)
            } else {
                try container.encodeNil(forKey: .lifecycleDivergence)
            }
            try container.encode(waitingForClock, forKey: .waitingForClock)
        }

        private enum CodingKeys: String, CodingKey { case session, steps, divergence, lifecycleDivergence, waitingForClock }
    }

    /// Where a replay's answer first differed from the recorded one.
    struct Divergence: Encodable {
        /// What differed: the answer (`answer`), or only a scene's lifecycle (`lifecycle`).
        enum Kind: String, Encodable { case answer, lifecycle }

        /// What differed.
        let kind: Kind
        /// The entry's number in the journal.
        let seq: Int
        /// The recorded status and answer.
        let expected: Answer
        /// The replay's status and answer.
        let actual: Answer
        /// What differs, as paths into ``expected`` and ``actual``: `status` when the HTTP
        /// statuses do, `answer.output.count` for a member of the answer.
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
            throw HTTPError(
                .invalidJournal, detail: "A journal holds at most \(Self.maxEntries) entries, not \(journal.entries.count).", member: "entries")
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
        case ("POST", "clock") where segments == ["clock", "advance"]:
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
            guard sessions.catalogue.scene(forKey: decoded) != nil, sessions.catalogue.isAddressable(key: decoded) else {
                return "no scene of this app has the key \(decoded.prefix(80))."
            }
            return nil
        default:
            return
                "\(entry.method.prefix(16)) \(path.prefix(80)) is not a request a journal records (inputs, actions, going back, clearing the store, moving the clock)."
        }
    }

    /// Replays `journal` on a new session, waiting up to `wait` for the work to be quiet before
    /// each entry and after the last.
    func run(_ journal: JournalDocument, settlingFor wait: Duration) async throws -> Document {
        guard let routing = testing.routing else {
            throw HTTPError.unavailable("The server is not serving yet.", retryAfterSeconds: 1)
        }
        let created = await routing.respond(to: HTTPRequest(method: "POST", path: "/sessions"))
        guard created.status == 201,
            let id = created.headers.first(where: { $0.name == "Location" })?.value.split(separator: "/").last.map(String.init)
        else {
            // No session could be made (every slot busy, say): that answer is the replay's.
            throw ReplyInstead(reply: .response(created))
        }
        var steps = 0
        var lifecycleDivergence: Divergence?
        // The new session's work alone is waited for: other sessions under test go on as they will.
        let meter: WorkMeter? = if case .live(let session) = sessions.lookup(id, isUse: false) { session.testing?.meter } else { nil }
        for entry in journal.entries {
            _ = await testing.waitUntilQuiet(meter, before: .now + wait)
            let body = try entry.requestBody()
            var headers: [String: String] = [:]
            if !body.isEmpty { headers["Content-Type"] = "application/json" }
            let response = await routing.respond(
                to: HTTPRequest(method: entry.method, path: "/sessions/" + id + entry.path, headers: headers, body: body))
            steps += 1
            let actual =
                response.body.isEmpty ? JSONValue.null : StrictJSON.parse(response.body) ?? .string(String(decoding: response.body, as: UTF8.self))
            let expected = Answer(status: entry.status, answer: entry.answer)
            let replayed = Answer(status: response.status, answer: actual)
            let members =
                (response.status == entry.status ? [] : ["status"])
                + Self.differences(expected: entry.answer, actual: actual, recordedSession: journal.session, session: id)
            if !members.isEmpty {
                let divergence = Divergence(kind: .answer, seq: entry.seq, expected: expected, actual: replayed, members: members)
                return Document(
                    session: id, steps: steps, divergence: divergence, lifecycleDivergence: lifecycleDivergence,
                    waitingForClock: await waitsForClock(id))
            }
            if lifecycleDivergence == nil {
                let lifecycles = Self.lifecycleDifferences(expected: entry.answer, actual: actual, under: Self.answerPath)
                if !lifecycles.isEmpty {
                    lifecycleDivergence = Divergence(kind: .lifecycle, seq: entry.seq, expected: expected, actual: replayed, members: lifecycles)
                }
            }
        }
        _ = await testing.waitUntilQuiet(meter, before: .now + wait)
        return Document(
            session: id, steps: steps, divergence: nil, lifecycleDivergence: lifecycleDivergence, waitingForClock: await waitsForClock(id))
    }

    /// The path of the answer in a divergence's ``Answer``, under which its members are named.
    private static let answerPath = "answer"

    /// Whether the session `id` has work running while the test clock has waits: work that
    /// settles only once the clock moves.
    private func waitsForClock(_ id: String) async -> Bool {
        guard case .live(let session) = sessions.lookup(id), testing.hasWaits(for: session) else { return false }
        return await session.context.run { $0.hasRunningWork }
    }

    /// The members where `actual` differs from `expected`, as paths under `answer`, by the rules
    /// of the type's documentation; a difference of lifecycle alone is not among them.
    static func differences(expected: JSONValue, actual: JSONValue, recordedSession: String, session: String) -> [String] {
        var differences = JSONDifferences()
        differences.comparesArrayItems = true
        differences.renaming = (recordedSession, session)
        differences.ignoredMembers = { expected, actual in
            if let lifecycle = expected["lifecycle"], lifecycle != actual["lifecycle"] {
                return ["version", "lifecycle", "output", "error"]
            }
            return ["version"]
        }
        return differences.paths(expected: expected, actual: actual, under: answerPath)
    }

    /// The paths under `path` of the documents whose `lifecycle` differs between `expected` and
    /// `actual`, looked for in objects at the same places of both.
    static func lifecycleDifferences(expected: JSONValue, actual: JSONValue, under path: String) -> [String] {
        guard case .object(let expectedMembers) = expected, case .object(let actualMembers) = actual else { return [] }
        if let lifecycle = expectedMembers["lifecycle"], lifecycle != actualMembers["lifecycle"] {
            return [path + ".lifecycle"]
        }
        return expectedMembers.keys.sorted().flatMap { name in
            lifecycleDifferences(expected: expectedMembers[name]!, actual: actualMembers[name] ?? .null, under: path + "." + name)
        }
    }
}
