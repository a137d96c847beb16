import Foundation
import MVVMJSON

/// A journal as a POSIX shell script: given the base URL of a server, it makes a new session,
/// replays each entry with curl (settling the session before each, but a move of its clock,
/// which waits for the session's work itself), prints each answer's status
/// to standard error, and the new session's id last on standard output.
struct CurlScript {
    let journal: JournalDocument

    init(_ journal: JournalDocument) {
        self.journal = journal
    }

    var text: String {
        var lines = [
            "#!/bin/sh",
            "# The journal of session \(journal.session): \(journal.entries.count) requests"
                + (journal.dropped > 0 ? ", after \(journal.dropped) dropped ones" : "") + ".",
            "# Replays them on a new session: sh journal.sh http://127.0.0.1:8080",
            "set -eu",
            "base=\"${1:?usage: sh journal.sh BASE_URL}\"",
            "session=$(curl -sS -D - -o /dev/null -X POST \"$base/sessions\" | tr -d '\\r' | sed -n 's|^[Ll]ocation: */sessions/\\([A-Za-z0-9_-]*\\).*|\\1|p')",
            "[ -n \"$session\" ] || { echo \"no session was made at $base\" >&2; exit 1; }",
            "settle() { curl -sS -o /dev/null \"$base/sessions/$session/settled?wait=10\"; }",
        ]
        for entry in journal.entries {
            // A clock move waits for the session's work itself, counting work that waits on the
            // clock as done; a settle would wait for that work until its time out.
            if entry.path != API.clockAdvancePath { lines.append("settle") }
            let label = Self.quotedContent("\(entry.method) \(entry.path)").replacingOccurrences(of: "%", with: "%%")
            var command =
                "curl -sS -o /dev/null -w '%{http_code} \(label) (recorded \(entry.status))\\n' -X \(Self.quoted(entry.method)) \"$base/sessions/$session\"\(Self.quoted(entry.path))"
            if let body = try? entry.requestBody(), !body.isEmpty {
                command += " -H 'Content-Type: application/json' --data-binary \(Self.quoted(String(decoding: body, as: UTF8.self)))"
            }
            lines.append(command + " >&2")
        }
        lines.append("settle")
        lines.append("echo \"$session\"")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` in single quotes, for the shell.
    static func quoted(_ text: String) -> String {
        "'" + quotedContent(text) + "'"
    }

    /// `text` to put between single quotes: each quote closes the quoting, is escaped, and
    /// opens it again.
    static func quotedContent(_ text: String) -> String {
        text.replacingOccurrences(of: "'", with: "'\\''")
    }
}
