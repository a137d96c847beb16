import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON

/// `POST /sessions/{id}/recreate`: what a restart does, to one session. Its view models are
/// dropped and made again from the session as it is saved (the record a state store holds),
/// and the members of each one's input and output that differ afterwards are reported as lost.
struct Recreation {
    /// One view model's report.
    struct Report: Encodable {
        /// Its store key.
        let key: String
        /// The members whose value differs after the recreation, as paths such as
        /// `input.filter` or `output.count`.
        let lost: [String]
    }

    /// The answer.
    struct Document: Encodable {
        /// A report for each view model the session held before, in the order they were made.
        let scenes: [Report]
        /// Whether the recreated session settled before the answer.
        let settled: Bool
        /// Whether work of the session is still waiting for the test clock to move.
        let waitingForClock: Bool
    }

    let sessions: Sessions
    let testing: TestingMode

    /// Recreates `session` and reports what it lost, having waited until `deadline` at most for
    /// the recreated session's work.
    /// - Throws: 410 when the session was deleted meanwhile.
    func recreate(_ session: Session, before deadline: ContinuousClock.Instant) async throws -> Document {
        // The picture before: the work running now goes as far as it can first.
        _ = await testing.waitUntilQuiet(session.testing?.meter, before: deadline)
        let (saved, before) = await session.context.run { actor in
            let saved = actor.savedSession(createdAt: session.createdAt, lastUsed: WallClock.milliseconds, complete: true)
            return (saved, actor.withContext { context in context.store.keys.map { (key: $0, body: context.store.entry($0)?.document ?? Data()) } })
        }
        let recreated = sessions.make(
            id: session.id, createdAt: session.createdAt, firstVersion: saved.firstVersion, journal: session.journal, clock: session.testing?.clock)
        // A new context is idle: the restore runs here, at once.
        _ = recreated.context.runIfIdle { $0.restore(saved) }
        guard sessions.table.replace(session, with: recreated) else {
            session.needsCompleteSave.store(true, ordering: .relaxed)
            recreated.board.close(handedOver: true)
            await recreated.context.close()
            throw HTTPError(.sessionGone, detail: "The session was deleted or expired; create a new one.")
        }
        // Requests parked on the old context are answered with what they have: their clients
        // ask again, and reach the recreated one.
        sessions.end(session, handedOver: true)
        // The view models held before are made again (a load starts), as their clients'
        // next reads would make them.
        await recreated.context.run { actor in
            for (key, _) in before { _ = try? actor.state(of: key) }
        }
        _ = await testing.waitUntilQuiet(recreated.testing?.meter, before: deadline)
        let (after, running) = await recreated.context.run { actor in
            (
                actor.withContext { context in
                    Dictionary(before.map { ($0.key, context.store.entry($0.key)?.document ?? Data()) }) { first, _ in first }
                },
                actor.hasRunningWork
            )
        }
        let reports = before.map { key, body in
            Report(key: key, lost: Self.lostMembers(before: body, after: after[key] ?? Data()))
        }
        return Document(scenes: reports, settled: !running, waitingForClock: running && testing.hasWaits(for: recreated))
    }

    /// The members of a state document's input and output whose value differs between two
    /// versions of it, as dotted paths (into nested objects, down to the member that differs).
    static func lostMembers(before: Data, after: Data) -> [String] {
        let old = StrictJSON.parse(before)?.objectValue ?? [:]
        let new = StrictJSON.parse(after)?.objectValue ?? [:]
        return ["input", "output"].flatMap { part in
            JSONDifferences().paths(expected: old[part] ?? .null, actual: new[part] ?? .null, under: part)
        }
    }
}
