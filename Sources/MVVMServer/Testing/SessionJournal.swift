import Foundation
import MVVMJSON
import Synchronization

/// What a session in testing mode records: every request that changed it after its creation
/// (inputs, actions, going back, clearing its store), with the answer it got, in a bounded ring.
/// When the ring is full, the oldest entry goes, and the export counts it as dropped.
final class SessionJournal: Sendable {
    /// One recorded request.
    struct Entry: Sendable, Codable, Equatable {
        /// Its number in the session's journal, from 1, counting the dropped ones.
        var seq: Int
        /// The request's method.
        var method: String
        /// Its path below the session, e.g. `/scenes/car/input`.
        var path: String
        /// Its JSON body; `null` when it had none, or when it was not JSON.
        var body: JSONValue
        /// The body as it was sent, when it was not JSON (a malformed input); `nil` otherwise.
        var rawBody: String?
        /// The answer's status.
        var status: Int
        /// The answer's JSON document; `null` when the answer held none.
        var answer: JSONValue

        /// The bytes to send again: the raw body, else the JSON body (none when `null`).
        func requestBody() throws -> Data {
            if let rawBody { return Data(rawBody.utf8) }
            return body == .null ? Data() : try JSONCoding.encode(body)
        }
    }

    /// The most entries a session keeps.
    static let capacity = 1000

    /// An entry as kept: the bytes of its body and answer, parsed only when exported.
    private struct Recorded {
        let seq: Int
        let method: String
        let path: String
        let body: Data
        let status: Int
        let answer: Data

        var entry: Entry {
            let json = Self.value(body)
            let raw = json == nil && !body.isEmpty ? String(decoding: body, as: UTF8.self) : nil
            return Entry(seq: seq, method: method, path: path, body: json ?? .null, rawBody: raw, status: status, answer: Self.value(answer) ?? .null)
        }

        /// Writes the entry as ``Entry`` encodes it (its members in the encoder's order), with
        /// the body and the answer as they were recorded when they are JSON.
        func write(to writer: inout JSONBytesWriter) {
            let bodyIsJSON = body.isEmpty || StrictJSON.isWellFormed(body)
            writer.append("{\"answer\":")
            Self.write(answer.isEmpty || !StrictJSON.isWellFormed(answer) ? nil : answer, to: &writer)
            writer.append(",\"body\":")
            Self.write(bodyIsJSON ? body : nil, to: &writer)
            writer.append(",\"method\":")
            writer.writeString(method)
            writer.append(",\"path\":")
            writer.writeString(path)
            if !bodyIsJSON {
                writer.append(",\"rawBody\":")
                writer.writeString(String(decoding: body, as: UTF8.self))
            }
            writer.append(",\"seq\":")
            writer.writeInteger(UInt64(seq), negative: false)
            writer.append(",\"status\":")
            writer.writeInteger(UInt64(status), negative: false)
            writer.append("}")
        }

        /// Writes JSON bytes as they are, `null` for none or for empty ones.
        private static func write(_ json: Data?, to writer: inout JSONBytesWriter) {
            if let json, !json.isEmpty { writer.append(bytes: json) } else { writer.append("null") }
        }

        /// The JSON value of `bytes`: `null` when empty, `nil` when they are not JSON.
        private static func value(_ bytes: Data) -> JSONValue? {
            bytes.isEmpty ? .null : StrictJSON.parse(bytes)
        }
    }

    private struct State {
        var entries: [Recorded] = []
        /// Where the oldest entry is in `entries` once the ring is full.
        var head = 0
        var recorded = 0
    }

    private let state = Mutex(State())

    /// Records a request and its answer.
    func record(method: String, path: String, body: Data, status: Int, answer: Data) {
        state.withLock { state in
            state.recorded += 1
            let entry = Recorded(seq: state.recorded, method: method, path: path, body: body, status: status, answer: answer)
            if state.entries.count < Self.capacity {
                state.entries.append(entry)
            } else {
                state.entries[state.head] = entry
                state.head = (state.head + 1) % Self.capacity
            }
        }
    }

    /// The entries kept, oldest first, and how many were dropped to keep the bound.
    var export: (entries: [Entry], dropped: Int) {
        let (kept, dropped) = keptEntries
        return (kept.map(\.entry), dropped)
    }

    /// The journal as `GET …/journal` sends it: a ``JournalDocument`` of `session` with the
    /// entries kept, written from the bytes recorded instead of parsed and encoded again. A
    /// body or an answer that is JSON goes in as it was sent or answered; any other body goes
    /// in as `rawBody`, beside a `null` body, as ``Entry`` encodes it.
    func exportedDocument(session: String) -> Data {
        let (kept, dropped) = keptEntries
        var writer = JSONBytesWriter(capacity: 256 + kept.reduce(0) { $0 + $1.body.count + $1.answer.count + $1.path.count + 96 })
        writer.append("{\"capacity\":")
        writer.writeInteger(UInt64(Self.capacity), negative: false)
        writer.append(",\"dropped\":")
        writer.writeInteger(UInt64(dropped), negative: false)
        writer.append(",\"entries\":[")
        writer.writeSeparated(count: kept.count) { writer, index in kept[index].write(to: &writer) }
        writer.append("],\"session\":")
        writer.writeString(session)
        writer.append("}")
        return Data(writer.bytes)
    }

    private var keptEntries: (entries: [Recorded], dropped: Int) {
        state.withLock { state in
            (Array(state.entries[state.head...] + state.entries[..<state.head]), state.recorded - state.entries.count)
        }
    }
}
