import Logging
import MVVMHTTP

/// What a request's log line says of it: the route's pattern, and the path and the session with
/// the session id shortened (session ids are secrets).
extension Application {
    /// Shortens session ids in logged paths: they are secrets.
    static func redactSessionIDs(_ path: String) -> String {
        guard let id = sessionID(in: path) else { return path }
        return "/sessions/" + SessionID.redacted(id) + path.dropFirst("/sessions/".count + id.count)
    }

    /// The session id a path names, as sent.
    private static func sessionID(in path: String) -> String? {
        guard path.hasPrefix("/sessions/") else { return nil }
        let id = path.dropFirst("/sessions/".count).prefix { $0 != "/" }
        return id.isEmpty ? nil : String(id)
    }

    /// The metadata of a request's log line: the route's pattern (`unmatched` when none took
    /// it), the path and the session, both with the session id shortened.
    static func requestLogMetadata(routes: [Router.Route]) -> @Sendable (Int, String) -> Logger.Metadata {
        let patterns = routes.map(\.pattern.description)
        return { route, path in
            var metadata: Logger.Metadata = [
                "route": .string(patterns.indices.contains(route) ? patterns[route] : "unmatched"),
                "path": .string(redactSessionIDs(path)),
            ]
            if let id = sessionID(in: path) { metadata["session"] = .string(SessionID.redacted(id)) }
            return metadata
        }
    }
}
