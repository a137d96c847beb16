import Foundation
import OpenAPIRuntime

/// One session of the server: its scenes, its navigation and its events.
///
/// A value that names the session: copies, and clients made later with
/// ``MVVMClient/session(id:)``, all reach the same session.
public struct SessionClient: Sendable {
    let api: Client
    let streams: EventStreamOpener?
    /// The session's id, as the server made it: a secret, like a cookie.
    public let id: String

    init(api: Client, streams: EventStreamOpener?, id: String) {
        self.api = api
        self.streams = streams
        self.id = id
    }

    /// A scene of the session, by store key, read and driven with the app's own types: its
    /// view model is made on first use.
    public func scene<Input: Codable & Sendable, Output: Decodable & Sendable>(
        _ key: String, input: Input.Type, output: Output.Type
    ) -> SceneClient<Input, Output> {
        SceneClient(session: self, key: key)
    }

    /// Deletes the session (`DELETE /sessions/{id}`): every view model is cleared; later calls
    /// throw `session-gone`.
    public func delete() async throws {
        _ = try await call { try await api.deleteSession(path: .init(id: id)).noContent }
    }

    /// Clears the session's store (`DELETE /sessions/{id}/store`): every view model unloads; the
    /// navigation stays, and the next read of a scene makes a fresh view model.
    public func clearStore() async throws {
        _ = try await call { try await api.clearStore(path: .init(id: id)).noContent }
    }

    /// The session's navigation and the view models in its store.
    public func summary() async throws -> SessionSummary {
        SessionSummary(try await call { try await api.getSession(path: .init(id: id)).ok.body.json })
    }

    /// Follows the navigation until one satisfies `condition`, long-polling each next version;
    /// throws ``SceneClientError/timedOut(key:lastVersion:)`` (key `navigation`) after `timeout`.
    public func navigation(timeout: Duration = .seconds(10), where condition: (SessionNavigation) -> Bool) async throws -> SessionNavigation {
        let deadline = ContinuousClock.now + timeout
        var navigation = try await navigation()
        while !condition(navigation) {
            let remaining = deadline - .now
            guard remaining > .zero else { throw SceneClientError.timedOut(key: "navigation", lastVersion: navigation.version) }
            navigation = try await nextNavigation(after: navigation.version, wait: min(remaining, .seconds(30)))
        }
        return navigation
    }

    /// The navigation now.
    public func navigation() async throws -> SessionNavigation {
        SessionNavigation(try await call { try await api.getNavigation(path: .init(id: id)).ok.body.json })
    }

    /// The first navigation newer than `version`: at once when there is one, otherwise when the
    /// navigation changes, or the current one after `wait` (the server may cut the wait).
    public func nextNavigation(after version: UInt64, wait: Duration = .seconds(30)) async throws -> SessionNavigation {
        let query = Operations.GetNavigation.Input.Query(since: Int(clamping: version), wait: waitParameter(wait))
        return SessionNavigation(try await call { try await api.getNavigation(path: .init(id: id), query: query).ok.body.json })
    }

    /// Dismisses the modal, or pops the top of the stack; returns the new navigation.
    public func goBack() async throws -> SessionNavigation {
        SessionNavigation(try await call { try await api.goBack(path: .init(id: id)).ok.body.json })
    }

    /// The session's events after sequence number `after` (every event still kept when `nil`),
    /// long-polling up to `wait` when there are none yet.
    ///
    /// When the server no longer keeps some of the events after `after`, the batch holds those
    /// it keeps and says so (``EventBatch/missedEvents``): re-read the states you follow.
    public func events(after: UInt64? = nil, wait: Duration? = nil) async throws -> EventBatch {
        let query = Operations.GetEvents.Input.Query(since: after.map { Int(clamping: $0) }, wait: after == nil ? nil : wait.map(waitParameter))
        do {
            return EventBatch(try await call { try await api.getEvents(path: .init(id: id), query: query).ok.body.json }, missedEvents: false)
        } catch let problem as ProblemDetails where problem.kind == "events-expired" {
            let kept = try await call { try await api.getEvents(path: .init(id: id)).ok.body.json }
            return EventBatch(kept, missedEvents: true)
        }
    }
}

/// The `wait` query parameter: seconds, with up to three decimals.
func waitParameter(_ wait: Duration) -> String {
    let milliseconds = max(0, wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
    return String(format: "%lld.%03lld", milliseconds / 1000, milliseconds % 1000)
}
