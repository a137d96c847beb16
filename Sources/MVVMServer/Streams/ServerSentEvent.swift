import Foundation

/// One Server-Sent Events message: `id: V`, `event: T` and one `data:` line holding a JSON
/// document, each ending in a line feed, then an empty line.
struct ServerSentEvent {
    /// The message's type: the `event:` line.
    enum Kind: String {
        case state, snapshot, changes, navigation, events, gone
    }

    let id: UInt64
    let kind: Kind
    /// The JSON document, on one line (the JSON coders write no line breaks).
    let data: Data

    /// The message's bytes.
    var bytes: Data {
        var message = Data()
        message.reserveCapacity(data.count + 48)
        message.append(contentsOf: "id: ".utf8)
        message.append(contentsOf: String(id).utf8)
        message.append(contentsOf: "\nevent: ".utf8)
        message.append(contentsOf: kind.rawValue.utf8)
        message.append(contentsOf: "\ndata: ".utf8)
        // A line break inside the data would start a new field; JSON has none outside strings,
        // and escapes them inside, so one can only come from a document that is not JSON.
        if data.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            message.append(contentsOf: data.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 })
        } else {
            message.append(data)
        }
        message.append(contentsOf: "\n\n".utf8)
        return message
    }

    /// The comment line sent as a heartbeat.
    static let heartbeat = Data(": heartbeat\n".utf8)

    /// The header fields of a stream's answer.
    static let headers: [(name: String, value: String)] = [
        ("Content-Type", "text/event-stream"),
        ("Cache-Control", "no-store"),
        // nginx would otherwise buffer the stream.
        ("X-Accel-Buffering", "no"),
    ]
}
