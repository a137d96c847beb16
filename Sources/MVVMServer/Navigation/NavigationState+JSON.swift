import Foundation

extension NavigationState {
    /// The state as JSON, written directly: the same bytes as its `Encodable` conformance gives
    /// through ``JSONCoding`` (members sorted by key), without Codable's containers. Every
    /// session publishes its navigation when its root scene is set.
    var jsonData: Data {
        var writer = JSONBytesWriter(capacity: 256)
        writer.append(#"{"modal":"#)
        if let modal { writer.write(modal) } else { writer.append("null") }
        writer.append(#","stack":["#)
        writer.writeSeparated(stack) { $0.write($1) }
        writer.append(#"],"version":"#)
        writer.writeInteger(version, negative: false)
        writer.append("}")
        return Data(writer.bytes)
    }
}

extension JSONBytesWriter {
    /// Writes an entry as its synthesized `Encodable` conformance does, keys in UTF-8 order:
    /// `key`, `path`, `presentation`, `scene`, `slots` (slot names sorted the same way).
    mutating func write(_ entry: NavigationEntry) {
        append(#"{"key":"#)
        writeString(entry.key)
        append(#","path":"#)
        writeString(entry.path)
        append(#","presentation":"#)
        writeString(entry.presentation.rawValue)
        append(#","scene":"#)
        writeString(entry.scene)
        append(#","slots":{"#)
        writeSeparated(entry.slots.sorted(by: { Self.utf8Precedes($0.key, $1.key) })) { writer, slot in
            writer.writeString(slot.key)
            writer.append(":")
            writer.write(slot.value)
        }
        append("}}")
    }
}
