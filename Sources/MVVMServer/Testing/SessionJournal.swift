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
        /// Its JSON body; `null` when it had none.
        var body: JSONValue
        /// The answer's status.
        var status: Int
        /// The answer's JSON document; `null` when the answer held none.
        var answer: JSONValue
    }

    /// The most entries a session keeps.
    static let capacity = 1000

    private struct State {
        var entries: [Entry] = []
        /// Where the oldest entry is in `entries` once the ring is full.
        var head = 0
        var recorded = 0
    }

    private let state = Mutex(State())

    /// Records a request and its answer.
    func record(method: String, path: String, body: Data, status: Int, answer: Data) {
        let bodyValue = body.isEmpty ? JSONValue.null : StrictJSON.parse(body) ?? .string(String(decoding: body, as: UTF8.self))
        let answerValue = answer.isEmpty ? JSONValue.null : StrictJSON.parse(answer) ?? .null
        state.withLock { state in
            state.recorded += 1
            let entry = Entry(seq: state.recorded, method: method, path: path, body: bodyValue, status: status, answer: answerValue)
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
        state.withLock { state in
            (Array(state.entries[state.head...] + state.entries[..<state.head]), state.recorded - state.entries.count)
        }
    }
}
