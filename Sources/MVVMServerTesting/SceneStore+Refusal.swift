import MVVMClient
import Testing

extension SceneStore {
    /// Sends input members the scene should refuse, and asserts the refusal: a 422 problem of
    /// `kind` naming `member`, after which the scene is unchanged (no new version, no event).
    public func refuseInput(
        members: some Encodable, kind: String = "invalid-input", member: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        _ = try await startingState()
        let problem = await refusal(sourceLocation) { _ = try await scene.setInput(members: members) }
        try await expectRefused(problem, kind: kind, member: member, what: "the input", sourceLocation)
    }

    /// Performs an action the scene should refuse, and asserts the refusal: a 422 problem of
    /// `kind` (`invalid-arguments` naming the argument `member`, or `action-refused` for the
    /// action as a whole), after which the scene is unchanged (no new version, no event).
    public func refuse(
        _ action: String, arguments: some Encodable = [String: String](), kind: String, member: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        _ = try await startingState()
        let problem = await refusal(sourceLocation) { _ = try await scene.perform(action, arguments: arguments) }
        try await expectRefused(problem, kind: kind, member: member, what: "'\(action)'", sourceLocation)
    }

    /// The problem `send` was answered with; `nil`, with an issue recorded, when it succeeded.
    private func refusal(_ sourceLocation: SourceLocation, _ send: () async throws -> Void) async -> ProblemDetails? {
        do {
            try await send()
            return nil
        } catch let problem as ProblemDetails {
            return problem
        } catch {
            Issue.record("A refusal was expected; the request failed with \(error).", sourceLocation: sourceLocation)
            return nil
        }
    }

    private func expectRefused(_ problem: ProblemDetails?, kind: String, member: String?, what: String, _ sourceLocation: SourceLocation) async throws
    {
        guard let problem else {
            Issue.record("\(what) of '\(scene.key)' was expected to be refused (\(kind)); it was taken.", sourceLocation: sourceLocation)
            return
        }
        if problem.status != 422 || problem.kind != kind || problem.member != member {
            Issue.record(
                "\(what) of '\(scene.key)': expected a 422 \(kind)\(member.map { " naming '\($0)'" } ?? ""); got \(problem.status) \(problem.kind)\(problem.member.map { " naming '\($0)'" } ?? ""): \(problem.detail)",
                sourceLocation: sourceLocation)
        }
        let now = try await scene.state()
        if now.version != version {
            let diff = StateDiff.between(expected: state, actual: State(now)) ?? "(the same state)"
            Issue.record(
                "A refusal changed '\(scene.key)': version \(now.version) follows the refused \(what) (the last asserted is \(version)):\n\(diff)",
                sourceLocation: sourceLocation)
        }
        let seen = unassertedEvents.count
        try await readEvents()
        if unassertedEvents.count > seen {
            let events = unassertedEvents[seen...].map { "#\($0.sequence) \($0.type)" }.joined(separator: ", ")
            Issue.record("A refusal recorded events of '\(scene.key)': \(events)", sourceLocation: sourceLocation)
        }
    }
}
